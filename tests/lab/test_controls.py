"""LAB controls refuse names MQ would not take and leave the queue manager usable (the clock's range: tests/model/test_clock.py)."""

from __future__ import annotations

import pytest

from tests.recovery.helpers import run


@pytest.mark.parametrize("command", ["LAB DAMAGE SUB('')", "LAB CRASH QMGR('')"])
def test_an_empty_name_is_a_syntax_error_and_nothing_happens(session, command):
    result = session.execute(command)
    assert result.syntax_error and "AMQ8405I" in session.render(result)
    assert session.execute("DEFINE QLOCAL(AFTER)").ok  # QM1 was not crashed
