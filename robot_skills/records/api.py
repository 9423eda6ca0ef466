"""The records' Python API with every tool registered: ``Records(Store(path)).call(name, args)``."""

from robot_skills.records import (  # noqa: F401
                                  closure,
                                  concepts,
                                  contracts,
                                  courses,
                                  documents,
                                  erasure,
                                  exercises,
                                  export,
                                  learner,
                                  live,
                                  mindmaps,  # importing registers the tools
                                  pairs,
                                  readbacks,
)
from robot_skills.records.store import Store
from robot_skills.records.tools import TOOLS, Records, Result

__all__ = ['TOOLS', 'Records', 'Result', 'Store']
