"""make bench writes its tables into docs/benchmarks.md, so the page shows one run's figures.

The page's prose is written by hand; only the part between ``BEGIN`` and ``END``
is the bench's. The run still prints everything to stdout: ``captured`` copies
what is printed while it runs, and ``publish`` replaces the block once the run
is over, so a run that fails leaves the page as it was.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from pathlib import Path

BEGIN = '<!-- bench:figures:begin -->'
END = '<!-- bench:figures:end -->'
PAGE = Path(__file__).resolve().parents[1] / 'docs' / 'benchmarks.md'


class MarkersMissingError(ValueError):
    """The page lacks the markers, or has them out of order: nothing is written."""


def with_figures(page: str, figures: str) -> str:
    """The page with the text between its markers replaced by ``figures``."""
    begin, end = page.find(BEGIN), page.find(END)
    if begin < 0 or end < begin or page.count(BEGIN) != 1 or page.count(END) != 1:
        raise MarkersMissingError(f'expected one {BEGIN} followed by one {END}')
    start = begin + len(BEGIN)
    return f'{page[:start]}\n{figures.strip()}\n{page[end:]}'


def publish(figures: str, page: Path = PAGE) -> None:
    """Rewrite the figures block of ``page``."""
    page.write_text(with_figures(page.read_text(encoding='utf-8'), figures), encoding='utf-8')


class _Tee(io.TextIOBase):
    """Writes to the real stdout and keeps a copy."""

    def __init__(self, out: io.TextIOBase) -> None:
        self.out = out
        self.copy = io.StringIO()

    def write(self, text: str) -> int:
        self.copy.write(text)
        return self.out.write(text)

    def flush(self) -> None:
        self.out.flush()


@contextlib.contextmanager
def captured() -> Iterator[io.StringIO]:
    """Everything printed inside the block, still printed; the copy is the yielded buffer."""
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        yield tee.copy
