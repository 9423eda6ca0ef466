"""learning_records as an MCP server (issue 18), with the official ``mcp`` SDK.

``server.py`` lists every tool of ``TOOLS`` and turns the core's answers into
MCP results; ``http.py`` hosts it over streamable HTTP inside the records node
(bearer tokens, ``access.py``), calling the node through ``bridge.py``;
``stdio.py`` is the ``records_mcp`` console script, which forwards each call to
the node's ROS service for its role. Either way a call runs in the one node, so
a ``live_wait`` parked over any transport wakes on a write from any other.
"""
