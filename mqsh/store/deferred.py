"""File writes done behind the commands that asked for them, on a thread of their own, in order.

MQ does not write a queue manager's object and queue data as each change is made: the log
record is the change, and deferred writes bring the files up to date before a checkpoint moves
the restart point past it. A change here is logged and forced before its response, as always;
only the file write that follows goes to this thread. A kill loses at most writes whose log
records restart replays, so nothing a response acknowledged depends on them. Making a file
costs the file system's journal tens to hundreds of microseconds, and the command does not
wait for it: the thread runs while the command's log force and its response go on (a write,
like fdatasync, lets go of the interpreter).

Whatever looks at the files themselves (a checkpoint, a lab command that damages or copies
them, the end of the queue manager) first waits for the writes asked so far (wait).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from queue import SimpleQueue

Job = tuple[str, Callable[[], None]]


class DeferredWrites:
    """A queue of file actions, each for one key (an object), run in the order given."""

    def __init__(self, thread_name: str):
        self.thread_name = thread_name
        self._jobs: SimpleQueue[Job | None] = SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._pending: dict[str, int] = {}  # key -> its actions not yet done
        self._failed: list[str] = []  # keys whose action raised OSError, until taken
        self._error: Exception | None = None  # anything else an action raised: wait raises it
        self._all_done = threading.Condition(self._lock)

    def submit(self, key: str, action: Callable[[], None]) -> None:
        with self._lock:
            self._pending[key] = self._pending.get(key, 0) + 1
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
            self._thread.start()
        self._jobs.put((key, action))

    def pending(self, key: str) -> bool:
        """Whether an action for key has been asked for and is not done yet."""
        return key in self._pending

    def wait(self) -> list[str]:
        """Every action asked so far is done; the keys whose actions failed since the last wait."""
        with self._all_done:
            while self._pending:
                self._all_done.wait()
            failed, self._failed = self._failed, []
            error, self._error = self._error, None
        if error is not None:
            raise error
        return failed

    def close(self) -> list[str]:
        """wait, then the thread ends (a later submit starts another)."""
        failed = self.wait()
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join()
            self._thread = None
        return failed

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            key, action = job
            failed, error = False, None
            try:
                action()
            except OSError:
                failed = True  # the caller decides what a failed write means (see wait)
            except Exception as raised:  # a fault in the action itself: the waiter hears of it
                error = raised
            with self._lock:
                if failed:
                    self._failed.append(key)
                if error is not None and self._error is None:
                    self._error = error
                left = self._pending[key] - 1
                if left:
                    self._pending[key] = left
                else:
                    del self._pending[key]
                if not self._pending:
                    self._all_done.notify_all()
