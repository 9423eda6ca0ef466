"""The records' Python API with every tool registered: ``Records(Store(path)).call(name, args)``."""

from robot_skills.records import (closure, concepts, contracts, courses,  # noqa: F401
                                  documents, erasure, exercises, export, learner, live,
                                  mindmaps, pairs, readbacks)  # importing registers the tools
from robot_skills.records.store import Store
from robot_skills.records.tools import TOOLS, Records, Result

__all__ = ['TOOLS', 'Records', 'Result', 'Store']
