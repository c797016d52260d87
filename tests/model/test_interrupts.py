"""Ctrl-C waits for the step in progress: log and memory never part."""

from __future__ import annotations

import os
import signal

import pytest

from mqsh.model.interrupts import uninterrupted


@pytest.fixture(autouse=True)
def python_interrupt_handler():
    """Each test starts from Python's own Ctrl-C handler (a Spark context installs one of its
    own, which an earlier test in the same process may have left), and gets back what was there."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_an_interrupt_in_a_step_comes_once_the_step_is_done():
    done = []
    with pytest.raises(KeyboardInterrupt), uninterrupted():
        os.kill(os.getpid(), signal.SIGINT)
        done.append("rest of the step")
    assert done == ["rest of the step"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_step_inside_another_leaves_the_interrupt_to_the_outer_one():
    done = []
    with pytest.raises(KeyboardInterrupt), uninterrupted():
        with uninterrupted():
            os.kill(os.getpid(), signal.SIGINT)
        done.append("after the inner step")
    assert done == ["after the inner step"]


def test_a_step_without_an_interrupt_changes_nothing():
    with uninterrupted():
        pass
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
