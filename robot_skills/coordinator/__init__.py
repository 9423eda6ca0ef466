"""learning_coordinator: routes, deduplicates and summarises learning requests (document 002).

crisis.py (the crisis exception), routing.py (subject, stage, SKILL), triggers.py
(section 五), confirmation.py (the one yes of a deletion), handover.py (the
protocol), records.py (linkage records, consent, privacy), report.py (monthly
report, health check), core.py (one decision, pure), memory.py (what lives in
memory only), store.py (SQLite), service.py (operations over the store),
lexicon.py (the data files as models), node.py (the ROS node).
"""
