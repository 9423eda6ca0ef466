"""wayfinding_guide: the Q5 reception robot at the 5th-floor front desk.

building.py (the data model), text.py (reading utterances),
resolver.py (rules: words -> decision), answers.py (decision -> phrases),
core.py (the turn state machine), node.py (the ROS node).
"""

