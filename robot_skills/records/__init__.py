"""learning_records: the learner-agent teaching records of document 004, over SQLite.

store.py (the schema), tools.py (what a tool is and the context it runs with),
errors.py (VALIDATION / NOT_FOUND / CONFLICT / PERMISSION), one module per family
of tools, each listing its tools in ``TOOLS`` (pairs.py, contracts.py, courses.py
with prep.py, the verify_prep validator, ... and live/ for live teaching), api.py
(every tool by name, and ``Records.call``, the one way to call one), node.py (the
ROS service ``records/call``), __main__.py (the operators' command line).
"""
