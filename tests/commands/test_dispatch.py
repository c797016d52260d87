"""Valid MQSC that mqsh does not carry out yet gets one clear message, never an internal error."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("text, verb_and_target", [
    ("DISPLAY USAGE TYPE(PAGESET)", "DISPLAY USAGE"),
    ("DISPLAY USAGE TYPE(ALL)", "DISPLAY USAGE"),  # outside a queue-sharing group
    ("DISPLAY APSTATUS(*) TYPE(QMGR) ALL", "DISPLAY APSTATUS"),
    ("DISPLAY AUTHSERV ALL", "DISPLAY AUTHSERV"),
    ("CLEAR TOPICSTR('prices/fruit') CLRTYPE(RETAINED) SCOPE(LOCAL)", "CLEAR TOPICSTR"),
    ("START CHINIT INITQ(SYSTEM.CHANNEL.INITQ)", "START CHINIT"),
    ("PURGE CHANNEL(MQTT.CHL) CLIENTID('client1')", "PURGE CHANNEL"),
])
def test_valid_mqsc_not_carried_out_says_so(session, text, verb_and_target):
    result = session.execute(text)
    assert not result.ok
    assert result.responses[0].line() == \
        f"AMQ8698E: mqsh does not carry out {verb_and_target} yet; the command is valid MQSC."
