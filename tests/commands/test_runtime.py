"""START and STOP of channels, and DISPLAY CHSTATUS of the channels started."""

from __future__ import annotations


def test_a_started_channel_has_a_status_and_a_stopped_one_none(session):
    assert session.execute("DISPLAY CHSTATUS(*)").responses[0].line() == "AMQ8420I: Channel Status not found."
    session.execute("DEFINE CHANNEL(TO.B) CHLTYPE(SDR) CONNAME('hostb(1414)') XMITQ(B) BATCHSZ(20)")
    assert session.execute("START CHANNEL(TO.B)").ok
    summary = session.execute("DISPLAY CHSTATUS(TO.*)").responses[0]
    assert [name for name, _ in summary.attributes] == \
        ["CHANNEL", "CHLTYPE", "CONNAME", "CURRENT", "RQMNAME", "STATUS", "SUBSTATE", "XMITQ"]
    shown = dict(session.execute("DISPLAY CHSTATUS(TO.B) ALL").responses[0].attributes)
    assert shown["STATUS"] == "RUNNING" and shown["BATCHSZ"] == "20" and shown["XMITQ"] == "B"
    assert session.execute("STOP CHANNEL(TO.B)").ok
    result = session.execute("DISPLAY CHSTATUS(TO.B)")
    assert not result.ok and result.responses[0].msgid == "AMQ8420I"
