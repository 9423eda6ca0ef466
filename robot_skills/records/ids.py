r"""Internal ids, and the rule that text the learner reads carries none (正文保持人话).

Every record's id is a prefix, an underscore and lowercase hex (``snap_3f…``,
``tr_9a…``). Text the learner reads (a live session's summary,
teacher_reflection and next_action, a live evaluation's agent_observation,
the body of a post-lesson evaluation) must be written for her: the ids that
anchor a judgement go in ``evidence_refs``, the machine's channel. An id is
found wherever it stands, also glued to Chinese text (``见snap_3``), which a
``\b`` boundary would miss; a word that merely contains a prefix
(``index_2``, ``CO_2``) is not an id.
"""

from __future__ import annotations

import re

from robot_skills.records.errors import validation

PREFIXES = ('tr', 'evt', 'snap', 'le', 'co', 'ct', 'fb', 'hyp', 'lv', 'mv', 'rsp', 'ple', 'sub',
            'ex', 'pair', 'cpt', 'fc', 'doc', 'hl', 'mm', 'qz', 'pt', 'lve', 'th')
INTERNAL_ID = re.compile(r'(?<![A-Za-z0-9_])(?:' + '|'.join(PREFIXES) + r')_[0-9a-f]+'
                         r'(?![A-Za-z0-9_])')


def plain(field: str, text: str) -> None:
    """Refuse (VALIDATION) learner-visible ``text`` that carries an internal id."""
    if INTERNAL_ID.search(text):
        raise validation(f'{field} is read by the learner: write it as plain words; internal '
                         'ids go in evidence_refs', field=field)
