"""A script's commands in order, with a look at the next one when it has already arrived.

While one command's log records are forced to disk, the batch parses the
next command, if its lines are there: a thread reads the input, so looking
never waits for input that has not come (a script fed a command at a time,
each waiting for the previous response, must get that response first).
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Iterable

from mqsh.language.lines import Chunk, LineReader

_END = object()  # the input ended (or failed: then the reader's error follows the chunks read)


class Lookahead:
    def __init__(self, lines: Iterable[str]):
        self._lines: queue.SimpleQueue = queue.SimpleQueue()
        self._reader = LineReader()
        self._ready: deque[tuple[Chunk, int]] = deque()  # with the number of the input line each ends on
        self._taken = 0  # input lines taken into chunks
        self._delivered = 0  # input lines the reading thread has handed over (read on this thread too)
        self.last_line = 0  # the input line the chunk last returned by next() ends on
        self._ended = False
        self._error: BaseException | None = None
        threading.Thread(target=self._read, args=(lines,), name="mqsh-input", daemon=True).start()

    def _read(self, lines: Iterable[str]) -> None:
        try:
            for line in lines:
                self._lines.put(line)
                self._delivered += 1  # after the put: the count never runs ahead of the lines there
        except BaseException as error:
            self._error = error
        finally:
            self._lines.put(_END)

    def _take_line(self, wait: bool) -> bool:
        """One input line into chunks; False when none is there (not waiting) or the input ended."""
        try:
            line = self._lines.get(block=wait)
        except queue.Empty:
            return False
        if line is _END:
            self._ready.extend((chunk, self._taken) for chunk in self._reader.close())
            self._ended = True
            return False
        self._taken += 1
        self._ready.extend((chunk, self._taken) for chunk in self._reader.feed(line))
        return True

    def delivered(self) -> int:
        """How many input lines have arrived so far: every one of them arrived before this call."""
        return self._delivered

    def next(self) -> Chunk | None:
        """The next chunk, waiting for its lines; None at the end of the input."""
        while not self._ready and not self._ended:
            self._take_line(wait=True)
        if self._ready:
            chunk, self.last_line = self._ready.popleft()
            return chunk
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        return None

    def peek(self) -> Chunk | None:
        """The chunk after the last one taken, if its lines have all arrived; never waits."""
        while not self._ready and not self._ended and self._take_line(wait=False):
            pass
        return self._ready[0][0] if self._ready else None
