"""LAB DAMAGE spoils the file of an object that exists; a name it cannot use is refused."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("command", ["LAB DAMAGE SUB(' ')", "LAB DAMAGE QUEUE(' ')"])
def test_a_blank_name_is_refused_and_the_queue_manager_goes_on(session, command):
    result = session.execute(command)
    assert not result.ok and result.syntax_error
    assert session.execute("DEFINE QLOCAL(STILL.WORKS)").ok


def test_a_subscription_with_a_very_long_name_is_kept_and_damaged_like_any_other(session):
    name = "S" * 5000
    assert session.execute(f"DEFINE SUB('{name}') TOPICSTR('long/name')").ok
    assert session.execute("endmqm QM1").ok and session.execute("strmqm QM1").ok
    assert session.execute(f"DISPLAY SUB('{name}')").ok
    assert session.execute(f"LAB DAMAGE SUB('{name}') HOW(DELETE)").ok
    assert session.execute("LAB CRASH").ok
    result = session.execute("strmqm QM1")
    assert result.ok, session.render(result)
    shown = session.execute(f"DISPLAY SUB('{name}')")
    assert not shown.ok and "AMQ8149E" in session.render(shown)  # damaged, not silently gone
