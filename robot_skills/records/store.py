"""The records' SQLite schema, and the reads every tool shares.

Opened by ``runtime/database.py`` (WAL with synchronous FULL, foreign keys,
one transaction per tool call, forward-only migrations). Final states are
enforced twice: by the tools (with a structured error) and by the schema
(a CHECK or a trigger), so no sequence of calls, and no bug in a tool, can
bring a completed or voided contract, or a closed lesson, back, or rewrite
the text of a lesson the learner has reached. Its
``application_id`` is ``APPLICATION_ID``: the coordinator's store, or any other
file, is refused rather than migrated.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from robot_skills.adapters.database import (
    BUSY_TIMEOUT,
    Readers,
    cooldown,
    open_database,
    transaction,
    version,
)

APPLICATION_ID = int.from_bytes(b'RSlr', 'big')     # robot_skills learning_records

MIGRATIONS = (
    '''
    CREATE TABLE learner (
        learner_id TEXT PRIMARY KEY,
        display_name TEXT NOT NULL,
        registered_at TEXT NOT NULL
    );
    CREATE TABLE pair (
        pair_id TEXT PRIMARY KEY,
        learner_id TEXT NOT NULL REFERENCES learner(learner_id),
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        agent_display_name TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'ended')),
        created_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX one_active_pair ON pair(learner_id) WHERE status = 'active';
    CREATE TABLE contract (
        contract_id TEXT PRIMARY KEY,
        pair_id TEXT NOT NULL REFERENCES pair(pair_id),
        setup_status TEXT NOT NULL CHECK (setup_status IN ('proposed', 'established')),
        active INTEGER NOT NULL DEFAULT 0,
        terms TEXT NOT NULL,
        cadence TEXT,
        source_material TEXT,
        established_at TEXT,
        voided_at TEXT,
        void_reason TEXT,
        learner_consent TEXT,
        completed_at TEXT,
        completion_note TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        CHECK (voided_at IS NULL OR completed_at IS NULL)
    );
    CREATE TRIGGER contract_final BEFORE UPDATE ON contract
        WHEN OLD.voided_at IS NOT NULL OR OLD.completed_at IS NOT NULL
        BEGIN SELECT RAISE(ABORT, 'a voided or completed contract is final'); END;
    CREATE TABLE course (
        course_id TEXT PRIMARY KEY,
        pair_id TEXT NOT NULL REFERENCES pair(pair_id),
        title TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        planned_lesson_count INTEGER CHECK (planned_lesson_count > 0),
        created_at TEXT NOT NULL
    );
    CREATE TABLE coverage (
        contract_id TEXT NOT NULL REFERENCES contract(contract_id),
        course_id TEXT NOT NULL REFERENCES course(course_id),
        PRIMARY KEY (contract_id, course_id)
    );
    CREATE TABLE lesson (
        lesson_id TEXT PRIMARY KEY,
        course_id TEXT NOT NULL REFERENCES course(course_id),
        title TEXT NOT NULL,
        content_markdown TEXT NOT NULL,
        position INTEGER NOT NULL,
        revision INTEGER NOT NULL DEFAULT 1,
        modality_declarations TEXT NOT NULL DEFAULT '{}',
        progress TEXT NOT NULL DEFAULT 'not_started'
            CHECK (progress IN ('not_started', 'in_progress', 'completed_declared', 'closed')),
        published_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX lesson_by_course ON lesson(course_id, position);
    CREATE TRIGGER lesson_closed BEFORE UPDATE ON lesson
        WHEN OLD.progress = 'closed'
        BEGIN SELECT RAISE(ABORT, 'a closed lesson is final'); END;
    CREATE TABLE lesson_revision (
        lesson_id TEXT NOT NULL REFERENCES lesson(lesson_id),
        revision INTEGER NOT NULL,
        snapshot TEXT NOT NULL,
        reason TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('teaching', 'technical')),
        at TEXT NOT NULL,
        PRIMARY KEY (lesson_id, revision)
    );
    CREATE TABLE lesson_patch (
        patch_id TEXT PRIMARY KEY,
        lesson_id TEXT NOT NULL REFERENCES lesson(lesson_id),
        kind TEXT NOT NULL CHECK (kind IN ('teacher_note', 'erratum')),
        body TEXT NOT NULL,
        source TEXT NOT NULL DEFAULT '',
        at TEXT NOT NULL
    );
    CREATE TABLE event (
        event_id INTEGER PRIMARY KEY AUTOINCREMENT,
        pair_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        at TEXT NOT NULL
    );
    ''',
    # 2: what a lesson is taught with and how it is closed: documents and their highlights,
    # concepts, flashcards (FSRS), mind maps, exercises, simulated quizzes, submissions,
    # post-lesson evaluations and closing receipts.
    '''
    ALTER TABLE lesson ADD COLUMN concept_ids TEXT NOT NULL DEFAULT '[]';
    CREATE TABLE document (
        document_id TEXT PRIMARY KEY,
        pair_id TEXT NOT NULL REFERENCES pair(pair_id),
        title TEXT NOT NULL,
        content_markdown TEXT NOT NULL,
        source TEXT NOT NULL DEFAULT 'mcp',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE highlight (
        highlight_id TEXT PRIMARY KEY,
        document_id TEXT NOT NULL REFERENCES document(document_id),
        quote TEXT NOT NULL,
        start INTEGER NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        orphaned_at TEXT,
        created_at TEXT NOT NULL
    );
    CREATE TABLE concept (
        concept_id TEXT PRIMARY KEY,
        pair_id TEXT NOT NULL REFERENCES pair(pair_id),
        course_id TEXT NOT NULL REFERENCES course(course_id),
        lesson_id TEXT NOT NULL REFERENCES lesson(lesson_id),
        name TEXT NOT NULL,
        short_definition TEXT NOT NULL,
        source_refs TEXT NOT NULL DEFAULT '[]',
        flashcard_ids TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE flashcard (
        flashcard_id TEXT PRIMARY KEY,
        pair_id TEXT NOT NULL REFERENCES pair(pair_id),
        front TEXT NOT NULL,
        back TEXT NOT NULL,
        deck_id TEXT NOT NULL DEFAULT '',
        fsrs_state TEXT NOT NULL,
        due_at TEXT NOT NULL,
        review_count INTEGER NOT NULL DEFAULT 0,
        paused INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE mindmap (
        mindmap_id TEXT PRIMARY KEY,
        pair_id TEXT NOT NULL REFERENCES pair(pair_id),
        lesson_id TEXT REFERENCES lesson(lesson_id),
        course_id TEXT REFERENCES course(course_id),
        source TEXT NOT NULL CHECK (source IN ('agent', 'learner')),
        content TEXT NOT NULL,
        agent_seed_snapshot TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE exercise (
        exercise_id TEXT PRIMARY KEY,
        lesson_id TEXT NOT NULL REFERENCES lesson(lesson_id),
        prompt TEXT NOT NULL,
        reference_answer TEXT NOT NULL,
        expected_concepts TEXT NOT NULL DEFAULT '[]',
        tags TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL
    );
    CREATE TABLE quiz (
        quiz_id TEXT PRIMARY KEY,
        course_id TEXT NOT NULL REFERENCES course(course_id),
        title TEXT NOT NULL,
        questions TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE submission (
        submission_id TEXT PRIMARY KEY,
        exercise_id TEXT NOT NULL REFERENCES exercise(exercise_id),
        learner_answer TEXT NOT NULL,
        confidence TEXT,
        status TEXT NOT NULL
            CHECK (status IN ('draft', 'submitted', 'pending_grade', 'graded')),
        agent_score REAL,
        agent_feedback TEXT,
        submitted_at TEXT NOT NULL,
        graded_at TEXT
    );
    CREATE TABLE post_lesson_evaluation (
        evaluation_id TEXT PRIMARY KEY,
        pair_id TEXT NOT NULL REFERENCES pair(pair_id),
        lesson_id TEXT NOT NULL REFERENCES lesson(lesson_id),
        body TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (pair_id, lesson_id)
    );
    CREATE TABLE lesson_receipt (
        lesson_id TEXT PRIMARY KEY REFERENCES lesson(lesson_id),
        items TEXT NOT NULL,
        no_cognitive_update_reason TEXT,
        closed_at TEXT NOT NULL
    );
    ''',
    # 3: the learner model (hypotheses, the observation no-go register, teacher reflections,
    # the feedback pen) and live teaching (sessions, moves, responses, snapshots,
    # evaluations, ad-hoc threads, the event stream with its consumer cursors).
    '''
    CREATE TABLE boundary (
        pair_id TEXT NOT NULL REFERENCES pair(pair_id),
        domain TEXT NOT NULL,
        added_at TEXT NOT NULL,
        PRIMARY KEY (pair_id, domain)
    );
    CREATE TABLE hypothesis (
        hypothesis_id TEXT PRIMARY KEY,
        pair_id TEXT NOT NULL REFERENCES pair(pair_id),
        domain TEXT NOT NULL,
        observation TEXT NOT NULL,
        confidence REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'expired')),
        verdict TEXT CHECK (verdict IN ('confirmed', 'rejected', 'frozen')),
        evidence_event_ids TEXT NOT NULL DEFAULT '[]',
        last_evidence_at TEXT,
        last_verified_at TEXT,
        superseded_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE reflection (
        reflection_id TEXT PRIMARY KEY,
        pair_id TEXT NOT NULL REFERENCES pair(pair_id),
        lesson_id TEXT REFERENCES lesson(lesson_id),
        live_session_id TEXT,
        anchor_source TEXT NOT NULL,
        main_attribution TEXT NOT NULL,
        body TEXT NOT NULL,
        weather_expires_at TEXT,
        created_at TEXT NOT NULL
    );
    CREATE TABLE feedback (
        feedback_id TEXT PRIMARY KEY,
        pair_id TEXT NOT NULL REFERENCES pair(pair_id),
        kind TEXT NOT NULL CHECK (kind IN ('issue', 'idea')),
        text TEXT NOT NULL,
        anchors TEXT NOT NULL DEFAULT '{}',
        source_message_ref TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL DEFAULT 'open'
            CHECK (status IN ('open', 'acknowledged', 'addressed', 'declined')),
        note TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TRIGGER feedback_final BEFORE UPDATE ON feedback
        WHEN OLD.status IN ('addressed', 'declined')
        BEGIN SELECT RAISE(ABORT, 'addressed and declined feedback is final'); END;
    CREATE TABLE live_session (
        live_session_id TEXT PRIMARY KEY,
        pair_id TEXT NOT NULL REFERENCES pair(pair_id),
        lesson_id TEXT REFERENCES lesson(lesson_id),
        context_type TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'completed', 'cancelled')),
        awaiting_role TEXT NOT NULL DEFAULT 'agent',
        learner_close_declared_at TEXT,
        summary TEXT, teacher_reflection TEXT, next_action TEXT,
        started_at TEXT NOT NULL,
        ended_at TEXT
    );
    CREATE TABLE live_move (
        move_id TEXT PRIMARY KEY,
        live_session_id TEXT NOT NULL REFERENCES live_session(live_session_id),
        seq INTEGER NOT NULL,
        move_type TEXT NOT NULL,
        content TEXT NOT NULL,
        response_kind TEXT NOT NULL,
        at TEXT NOT NULL,
        UNIQUE (live_session_id, seq)
    );
    CREATE TABLE live_response (
        response_id TEXT PRIMARY KEY,
        live_session_id TEXT NOT NULL REFERENCES live_session(live_session_id),
        move_id TEXT,
        text TEXT NOT NULL,
        at TEXT NOT NULL
    );
    CREATE TABLE live_snapshot (
        snapshot_id TEXT PRIMARY KEY,
        live_session_id TEXT NOT NULL REFERENCES live_session(live_session_id),
        body TEXT NOT NULL,
        at TEXT NOT NULL
    );
    CREATE TABLE live_evaluation (
        live_evaluation_id TEXT PRIMARY KEY,
        live_session_id TEXT NOT NULL UNIQUE REFERENCES live_session(live_session_id),
        agent_observation TEXT NOT NULL,
        evidence_refs TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL
    );
    CREATE TABLE adhoc_thread (
        thread_id TEXT PRIMARY KEY,
        pair_id TEXT NOT NULL UNIQUE REFERENCES pair(pair_id),
        created_at TEXT NOT NULL
    );
    CREATE TABLE adhoc_message (
        message_id INTEGER PRIMARY KEY AUTOINCREMENT,
        thread_id TEXT NOT NULL REFERENCES adhoc_thread(thread_id),
        role TEXT NOT NULL CHECK (role IN ('learner', 'agent')),
        text TEXT NOT NULL,
        payload TEXT,
        is_learning_related INTEGER NOT NULL DEFAULT 0,
        acked_at TEXT,
        at TEXT NOT NULL
    );
    CREATE TABLE live_event (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        pair_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        live_session_id TEXT,
        payload TEXT NOT NULL,
        at TEXT NOT NULL
    );
    CREATE TABLE consumer_cursor (
        consumer_id TEXT PRIMARY KEY,
        pair_id TEXT NOT NULL,
        seq INTEGER NOT NULL
    );
    CREATE TABLE heartbeat (
        pair_id TEXT PRIMARY KEY,
        expires_at TEXT NOT NULL
    );
    CREATE TABLE pending_probe (
        pair_id TEXT PRIMARY KEY,
        empty_calls INTEGER NOT NULL,
        first_at TEXT NOT NULL
    );
    ''',
    # 4 (issue 16): the learner's Class C choices made at signing; which move a live
    # response answered (how many moves the session had when she answered, so "no agent
    # move after it" does not depend on two clocks agreeing); the text of a lesson she has
    # reached is never rewritten (also in the schema); weather expiries stored in UTC.
    '''
    ALTER TABLE contract ADD COLUMN class_c TEXT;
    ALTER TABLE live_response ADD COLUMN after_move_seq INTEGER;
    UPDATE live_response SET after_move_seq = (
        SELECT count(*) FROM live_move WHERE live_move.live_session_id =
        live_response.live_session_id AND julianday(live_move.at) <= julianday(live_response.at));
    UPDATE reflection SET weather_expires_at = coalesce(
        strftime('%Y-%m-%dT%H:%M:%f+00:00', weather_expires_at), weather_expires_at)
        WHERE weather_expires_at IS NOT NULL;
    CREATE TRIGGER lesson_text_kept BEFORE UPDATE OF title, content_markdown ON lesson
        WHEN OLD.progress != 'not_started' AND (NEW.title IS NOT OLD.title OR
                                                NEW.content_markdown IS NOT OLD.content_markdown)
        BEGIN SELECT RAISE(ABORT, 'the text of a lesson she has reached is never rewritten'); END;
    ''',
    # 5 (issue 17): every read a tool makes is scoped to a pair, a learner or the ids it
    # names, and each of those filters and joins has its index, so a call costs the same
    # for one learner as for a school (test/test_query_plans.py checks the plans).
    '''
    CREATE INDEX pair_by_learner ON pair(learner_id, created_at);
    CREATE INDEX active_pairs ON pair(created_at) WHERE status = 'active';
    CREATE INDEX contract_by_pair ON contract(pair_id, created_at);
    CREATE INDEX course_by_pair ON course(pair_id, created_at);
    CREATE INDEX coverage_by_course ON coverage(course_id);
    CREATE INDEX patch_by_lesson ON lesson_patch(lesson_id, at);
    CREATE INDEX event_by_pair ON event(pair_id, kind, at);
    CREATE INDEX document_by_pair ON document(pair_id, created_at);
    CREATE INDEX highlight_by_document ON highlight(document_id, start);
    CREATE INDEX concept_by_lesson ON concept(lesson_id, created_at);
    CREATE INDEX concept_by_pair ON concept(pair_id, created_at);
    CREATE INDEX concept_by_course ON concept(course_id);
    CREATE INDEX flashcard_by_pair ON flashcard(pair_id, due_at);
    CREATE INDEX mindmap_by_pair ON mindmap(pair_id, source, created_at);
    CREATE INDEX mindmap_by_lesson ON mindmap(lesson_id, source);
    CREATE INDEX mindmap_by_course ON mindmap(course_id, source);
    CREATE INDEX exercise_by_lesson ON exercise(lesson_id, created_at);
    CREATE INDEX quiz_by_course ON quiz(course_id, created_at);
    CREATE INDEX submission_by_exercise ON submission(exercise_id, status, submitted_at);
    CREATE INDEX evaluation_by_lesson ON post_lesson_evaluation(lesson_id);
    CREATE INDEX hypothesis_by_pair ON hypothesis(pair_id, status, created_at);
    CREATE INDEX reflection_by_pair ON reflection(pair_id, created_at);
    CREATE INDEX reflection_by_lesson ON reflection(lesson_id, created_at);
    CREATE INDEX reflection_by_session ON reflection(live_session_id);
    CREATE INDEX feedback_by_pair ON feedback(pair_id, status, created_at);
    CREATE INDEX session_by_pair ON live_session(pair_id, status, started_at);
    CREATE INDEX session_by_lesson ON live_session(lesson_id, status, started_at);
    CREATE INDEX response_by_session ON live_response(live_session_id, after_move_seq);
    CREATE INDEX snapshot_by_session ON live_snapshot(live_session_id, at);
    CREATE INDEX message_by_thread ON adhoc_message(thread_id, role, message_id);
    CREATE INDEX live_event_by_pair ON live_event(pair_id, seq);
    ''',
    # 6 (issue 18): the bearer tokens of the MCP server over HTTP, issued and revoked by the
    # operators' command line (access.py). Only a hash of each secret is kept.
    '''
    CREATE TABLE access_token (
        token_id TEXT PRIMARY KEY,
        secret_sha256 TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('agent', 'learner', 'operator')),
        learner_id TEXT NOT NULL DEFAULT '',
        pair_ids TEXT NOT NULL DEFAULT '[]',
        label TEXT NOT NULL DEFAULT '',
        issued_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        revoked_at TEXT
    );
    ''',
    # 7 (issue 18): the learner's erasure of her own words (erasure.py). The rows stay as
    # tombstones (ids, times, kinds, grades, counts): the words become '' and erased_at is
    # set. Final feedback keeps every column but her words, which only an erasure empties.
    '''
    ALTER TABLE live_response ADD COLUMN erased_at TEXT;
    ALTER TABLE adhoc_message ADD COLUMN erased_at TEXT;
    ALTER TABLE feedback ADD COLUMN erased_at TEXT;
    DROP TRIGGER feedback_final;
    CREATE TRIGGER feedback_final BEFORE UPDATE OF feedback_id, pair_id, kind, anchors,
        source_message_ref, status, note, created_at, updated_at ON feedback
        WHEN OLD.status IN ('addressed', 'declined')
        BEGIN SELECT RAISE(ABORT, 'addressed and declined feedback is final'); END;
    CREATE TRIGGER feedback_words_final BEFORE UPDATE OF text, erased_at ON feedback
        WHEN OLD.status IN ('addressed', 'declined')
             AND NOT (NEW.text = '' AND NEW.erased_at IS NOT NULL)
        BEGIN SELECT RAISE(ABORT, 'addressed and declined feedback is final'); END;
    ''',
    # 8 (issue 18): `token list` walks the newest tokens by index and stops at its limit.
    '''
    CREATE INDEX token_by_issue ON access_token(issued_at);
    ''',
)


class Store:
    """One records database; tools read with ``one``/``all`` inside ``read()`` or ``write()``.

    Reads run in parallel, writes one at a time (issue 17): ``write()`` is BEGIN IMMEDIATE
    on the one writer connection, behind a lock; ``read()`` is a snapshot on a read-only
    connection of the calling thread (WAL lets it read while a write commits), so a slow
    read never waits for, or holds up, any other call. A ':memory:' store has one
    connection only: there ``read()`` takes the writer's lock.
    """

    def __init__(self, path: Path | str, busy_timeout: float = BUSY_TIMEOUT) -> None:
        self.path = str(path)
        self.db = open_database(self.path, MIGRATIONS, APPLICATION_ID, busy_timeout=busy_timeout)
        self.db.row_factory = sqlite3.Row
        self._writing = threading.RLock()
        self._readers = Readers(self.path, busy_timeout)
        self._local = threading.local()       # the snapshot this thread's call reads

    @property
    def version(self) -> int:
        return version(self.db)

    @property
    def unavailable_for(self) -> float:
        return cooldown(self.db)

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction at a time, on the writer connection."""
        with self._writing, transaction(self.db) as db:
            yield db

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """A consistent snapshot for one call, on this thread's read-only connection."""
        reader = self._readers.get()
        if reader is None:             # ':memory:': the writer's connection, made read-only
            with self._writing:
                self.db.execute('PRAGMA query_only = ON')
                self.db.execute('BEGIN')
                try:
                    yield self.db
                finally:
                    self.db.execute('ROLLBACK')
                    self.db.execute('PRAGMA query_only = OFF')
            return
        reader.execute('BEGIN')
        self._local.db = reader
        try:
            yield reader
        finally:
            self._local.db = None
            reader.execute('ROLLBACK')         # nothing to keep: a reader never writes

    def _db(self) -> sqlite3.Connection:
        return getattr(self._local, 'db', None) or self.db

    def one(self, sql: str, *args: Any) -> sqlite3.Row | None:
        return self._db().execute(sql, args).fetchone()

    def row(self, sql: str, *args: Any) -> sqlite3.Row:
        """The row the schema guarantees (an aggregate's, a foreign key's target): none is a bug."""
        found = self.one(sql, *args)
        if found is None:
            raise LookupError(f'no row where the schema guarantees one: {sql}')
        return found

    def all(self, sql: str, *args: Any) -> list[sqlite3.Row]:
        return self._db().execute(sql, args).fetchall()

    def run(self, sql: str, *args: Any) -> sqlite3.Cursor:
        return self._db().execute(sql, args)

    def event(self, pair_id: str, kind: str, payload: dict[str, Any], at: str) -> None:
        self.run('INSERT INTO event (pair_id, kind, payload, at) VALUES (?, ?, ?, ?)',
                 pair_id, kind, json.dumps(payload, ensure_ascii=False), at)

    # ---- the live event stream, as the node publishes it -----------------------------------

    def live_events_after(self, seq: int) -> list[sqlite3.Row]:
        """Every live event after ``seq``, in order (in a snapshot)."""
        with self.read():
            return self.all('SELECT * FROM live_event WHERE seq > ? ORDER BY seq', seq)

    def has_live_event(self, pair_id: str, after: int) -> bool:
        """Whether ``pair_id`` has a live event after the cursor ``after`` (in a snapshot)."""
        with self.read():
            return self.one('SELECT 1 FROM live_event WHERE pair_id = ? AND seq > ? LIMIT 1',
                            pair_id, after) is not None

    def last_live_seq(self) -> int:
        """The sequence number of the last live event (0 before the first)."""
        return int(self.row('SELECT coalesce(max(seq), 0) AS s FROM live_event')['s'])

    def close(self) -> None:
        self._readers.close()
        self.db.close()
