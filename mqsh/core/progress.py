"""A status line on stderr for long work (LAB LOAD, a replay record by record): how far, how fast.

Shown only where someone watches (the stream is a terminal), redrawn at most
five times a second, and wiped when the work ends, so that a script's report
and a terminal's scrollback carry none of it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TextIO, TypeVar

EVERY = 0.2  # seconds between redraws
Item = TypeVar("Item")


class StatusLine:
    def __init__(
        self,
        label: str,
        total: int | None = None,
        unit: str = "records",
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.label, self.total, self.unit = label, total, unit
        self.stream = stream if stream is not None else sys.stderr
        self.shown = self.stream.isatty()
        self.clock = clock
        self.started = self.last = clock()
        self.done = 0
        self.drawn = False

    def advance(self, count: int = 1) -> None:
        self.done += count
        now = self.clock()
        if self.shown and now - self.last >= EVERY:
            self.last = now
            self.stream.write(f"\r\033[K{self.text(now)}")
            self.stream.flush()
            self.drawn = True

    def text(self, now: float) -> str:
        rate = self.done / max(now - self.started, 1e-9)
        so_far = f"{self.done:,}/{self.total:,}" if self.total else f"{self.done:,}"
        return f"mqsh: {self.label}: {so_far} {self.unit} ({rate:,.0f} {self.unit}/s); Ctrl-C stops"

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()


@contextmanager
def status_line(
    label: str, total: int | None = None, unit: str = "records", stream: TextIO | None = None
) -> Iterator[StatusLine]:
    line = StatusLine(label, total, unit, stream)
    try:
        yield line
    finally:
        line.close()


def counted(items: Iterable[Item], line: StatusLine, batch: int = 4096) -> Iterator[Item]:
    """items as they are, counted on the line a batch at a time (a clock read per item would cost)."""
    pending = 0
    for item in items:
        pending += 1
        if pending == batch:
            line.advance(pending)
            pending = 0
        yield item
    line.advance(pending)
