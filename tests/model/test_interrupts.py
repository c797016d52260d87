"""Ctrl-C waits for the step in progress: log and memory never part."""

from __future__ import annotations

import os
import signal

import pytest

from mqsh.model.interrupts import uninterrupted

pytestmark = pytest.mark.usefixtures("python_interrupt_handler")


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
