"""learning_records: the learner-agent teaching records of document 004, over SQLite.

store.py (the schema), tools.py (the registry and the one way to call a
tool), errors.py (VALIDATION / NOT_FOUND / CONFLICT / PERMISSION), one module
per family of tools (pairs.py, contracts.py, courses.py with prep.py, the
verify_prep validator), api.py (the Python API), node.py (the ROS service
``records/call``), __main__.py (the operators' command line).
"""
