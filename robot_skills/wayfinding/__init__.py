"""wayfinding_guide: the Q5 reception robot at the 5th-floor front desk.

building.py (the data model), text.py and phonetic.py (reading utterances),
resolver.py (rules: words -> decision), answers.py (decision -> phrases),
core.py (the turn state machine), node.py (the ROS node).
"""

import os

# Names are matched by the sound of each character, so pypinyin's phrase
# dictionary is never used; not loading it saves about 45 MB per process.
os.environ.setdefault('PYPINYIN_NO_PHRASES', 'true')
os.environ.setdefault('PYPINYIN_NO_DICT_COPY', 'true')
