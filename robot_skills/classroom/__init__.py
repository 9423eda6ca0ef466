"""classroom_presenter: lessons on the TianYi 2.0 robot.

lesson.py (lessons and phrases as data), quota.py (the budgets, checked before
a course runs), words.py (reading requests and commands), grading.py (answers
into tiers), provider.py (an optional LLM source of lessons), core.py (the
batch state machine), node.py (the ROS node).
"""
