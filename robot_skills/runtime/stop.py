"""SIGINT and SIGTERM, from the first line of an executable to its last: a clean stop.

The handlers are installed before anything heavy is imported (``executables``):
a signal while rclpy or the data files are still loading raises ``Stopped``,
which the executable turns into exit status 0; once the nodes spin, a signal
only sets a flag that the spin loop reads between two waits (``entry.spin``),
so no callback is cut in half. rclpy's own signal handler is not installed:
one handler decides, and it never depends on where the main thread waits.

The interpreter's own start (before any module of this package runs, about a
tenth of a second) is the one window this cannot cover.

No rclpy here: this module is imported first.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stopped(BaseException):
    """A stop signal arrived before the nodes spun (a BaseException: no guard catches it)."""


_requested = threading.Event()
_spinning = threading.Event()


def _on_signal(signum: int, _frame: object) -> None:
    _requested.set()
    if not _spinning.is_set():
        raise Stopped(signal.Signals(signum).name)


def install() -> None:
    """Take SIGINT and SIGTERM (idempotent; the main thread only, as Python requires)."""
    if threading.current_thread() is threading.main_thread():
        for signum in SIGNALS:
            signal.signal(signum, _on_signal)


def requested() -> bool:
    return _requested.is_set()


@contextmanager
def spinning() -> Iterator[None]:
    """While the nodes spin, a signal sets the flag and nothing more."""
    _spinning.set()
    try:
        yield
    finally:
        _spinning.clear()
