"""SET and DISPLAY CHLAUTH: a rule shows WARN or CHCKCLNT by its USERSRC, with its defaults."""

from __future__ import annotations


def shown(session, text: str) -> dict:
    result = session.execute(text)
    assert result.ok, result
    return dict(result.responses[0].attributes)


def test_noaccess_mapping_shows_warn_and_other_mappings_show_chckclnt(session):
    session.execute("SET CHLAUTH('APP.*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS)")
    session.execute("SET CHLAUTH('APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('10.*') USERSRC(CHANNEL) CHCKCLNT(REQUIRED)")
    blocking = shown(session, "DISPLAY CHLAUTH('APP.*') ALL")
    assert blocking["WARN"] == "NO" and "CHCKCLNT" not in blocking
    mapping = shown(session, "DISPLAY CHLAUTH('APP.SVRCONN') ALL")
    assert mapping["CHCKCLNT"] == "REQUIRED" and "WARN" not in mapping
    assert mapping["ALTDATE"] != " "


def test_adding_a_mapping_twice_fails_and_replace_writes_it_afresh(session):
    rule = "SET CHLAUTH('APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('10.*')"
    assert session.execute(f"{rule} USERSRC(CHANNEL) DESCR('first')").ok
    again = session.execute(f"{rule} USERSRC(CHANNEL)")
    assert not again.ok and again.responses[0].msgid == "AMQ8883E"
    assert session.execute(f"{rule} USERSRC(MAP) MCAUSER('app') ACTION(REPLACE)").ok
    shown_rule = shown(session, "DISPLAY CHLAUTH('APP.SVRCONN') ALL")
    assert shown_rule["USERSRC"] == "MAP" and shown_rule["MCAUSER"] == "app" and shown_rule["DESCR"] == " "
