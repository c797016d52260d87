"""Writes done behind the commands: in order, on a thread of their own, failures reported at the wait."""

from __future__ import annotations

import errno
import os
import threading

import pytest

from mqsh.store.deferred import DeferredWrites


def test_actions_run_in_the_order_given_on_a_thread_of_their_own_and_are_pending_until_done():
    writes = DeferredWrites("test-writes")
    gate, done, threads = threading.Event(), [], set()

    def action(number: int):
        def run() -> None:
            gate.wait(5)
            threads.add(threading.current_thread().name)
            done.append(number)

        return run

    for number in range(20):
        writes.submit(f"K{number % 3}", action(number))
    assert writes.pending("K0") and writes.pending("K2") and not writes.pending("K9")
    gate.set()
    assert writes.wait() == []
    assert done == list(range(20)) and threads == {"test-writes"}
    assert not writes.pending("K0")
    writes.close()


def test_a_write_the_disk_refuses_is_reported_once_by_the_wait_and_the_others_go_on(tmp_path):
    writes = DeferredWrites("test-writes")

    def no_room() -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    writes.submit("FULL", no_room)
    writes.submit("FINE", lambda: (tmp_path / "fine").write_text("x"))
    assert writes.wait() == ["FULL"]
    assert (tmp_path / "fine").read_text() == "x"
    assert writes.wait() == [] and not writes.pending("FULL")
    writes.close()


def test_a_fault_in_an_action_is_raised_by_the_wait_and_the_thread_goes_on():
    writes = DeferredWrites("test-writes")
    writes.submit("BAD", lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        writes.wait()
    ran = []
    writes.submit("NEXT", lambda: ran.append(True))
    assert writes.wait() == [] and ran == [True]
    writes.close()


def test_close_ends_the_thread_and_a_later_write_starts_another():
    writes = DeferredWrites("test-writes")
    ran = []
    writes.submit("A", lambda: ran.append("A"))
    assert writes.close() == []
    assert ran == ["A"] and not any(thread.name == "test-writes" for thread in threading.enumerate())
    writes.submit("B", lambda: ran.append("B"))
    writes.close()
    assert ran == ["A", "B"]
