"""pbl_ta: the PBL discussion teaching assistant (document 003).

material.py (the pack and the lexicon as data), history.py (the history,
digested turn by turn), limits.py (the hard frequency limits), detectors.py
(the four reasons to speak), utterance.py (what the TA says and the rules it
must pass), card.py (the document's JSON), core.py (plan / refresh / draft +
discuss), provider.py (optional LLM rewording), node.py (the ROS node).
"""
