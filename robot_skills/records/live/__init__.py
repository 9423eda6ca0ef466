"""Live teaching (004 part 2): sessions, moves, responses, snapshots, closing, waiting.

``stream.py`` (the event stream and the bridge's heartbeat), ``sessions.py`` (a
session from start to close), ``presence.py`` (heartbeat, pending, wait),
``threads.py`` (ad-hoc messages outside a session).

Every learner event (a response, the close bell, an ad-hoc message) is
appended to ``live_event`` with a sequence number in the same transaction as
the record itself, so the event stream and the records cannot disagree.
``live_wait`` reads that stream after a cursor (leaving out ad-hoc messages
already acknowledged): a consumer's cursor is stored
(``consumer_id``) and moves only when the consumer acknowledges with
``since`` (at-least-once: a consumer that dies before acknowledging gets the
same events again, none is lost). In this module ``live_wait`` answers at
once; the node makes it wait up to ``timeout_s`` without polling (it parks
the call and answers when a write appends an event for the pair) and also
publishes each event on ``records/live_events``. ``live_pending`` is a
snapshot, with teeth against being used as a polling loop.
"""
