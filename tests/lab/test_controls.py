"""LAB controls refuse what is out of range and leave the queue manager usable."""

from __future__ import annotations

import pytest

from tests.recovery.helpers import run


@pytest.mark.parametrize("command, refusal", [
    ("LAB CLOCK ADVANCE(3000000D)", "mqsh: '3000000D' is out of range: the clock moves at most 2932896D"),
    ("LAB CLOCK SET('0001-01-01 00:00:00')", "mqsh: the simulated clock cannot go before 1970-01-01 00:00:00"),
])
def test_a_clock_move_out_of_range_is_refused_and_the_queue_manager_goes_on(session, command, refusal):
    result = session.execute(command)
    assert not result.ok and session.render(result).startswith(refusal)
    assert "1970-01-01 00:00:00 to 9999-12-31 23:59:59)." in session.render(result)
    assert session.execute("DEFINE QLOCAL(AFTER)").ok
    assert run(session, "endmqm QM1", "strmqm QM1", "DEFINE QLOCAL(AGAIN)")[-1].startswith("AMQ8006I")


def test_an_advance_to_the_last_moment_and_no_further(session):
    assert session.execute("LAB CLOCK SET('9999-12-30 23:59:59')").ok
    assert run(session, "LAB CLOCK ADVANCE(1D)") == ["The simulated clock is at 9999-12-31 23:59:59."]
    assert not session.execute("LAB CLOCK ADVANCE(1S)").ok
    assert session.execute("DEFINE QLOCAL(AFTER)").ok


@pytest.mark.parametrize("command", ["LAB DAMAGE SUB('')", "LAB CRASH QMGR('')"])
def test_an_empty_name_is_a_syntax_error_and_nothing_happens(session, command):
    result = session.execute(command)
    assert result.syntax_error and "AMQ8405I" in session.render(result)
    assert session.execute("DEFINE QLOCAL(AFTER)").ok  # QM1 was not crashed
