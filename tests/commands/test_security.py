"""SET and DISPLAY CHLAUTH: a rule shows WARN or CHCKCLNT by its USERSRC, with its defaults."""

from __future__ import annotations


def shown(session, text: str) -> dict:
    """The record of the profile the command names (a generic name also matches narrower ones)."""
    result = session.execute(text)
    assert result.ok, result
    profile = text.split("'")[1]
    return next(
        record
        for record in map(dict, (response.attributes for response in result.responses))
        if record["CHLAUTH"] == profile
    )


def test_noaccess_mapping_shows_warn_and_other_mappings_show_chckclnt(session):
    session.execute("SET CHLAUTH('APP.*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS)")
    session.execute(
        "SET CHLAUTH('APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('10.*') USERSRC(CHANNEL) CHCKCLNT(REQUIRED)"
    )
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


def test_chlauth_rules_list_most_specific_first_and_mcauser_only_where_it_maps(session):
    session.execute("SET CHLAUTH('DEV.APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL)")
    records = session.execute("DISPLAY CHLAUTH(*) ALL").responses
    profiles = [(dict(record.attributes)["CHLAUTH"], dict(record.attributes)["TYPE"]) for record in records]
    assert profiles == [
        ("DEV.APP.SVRCONN", "ADDRESSMAP"),
        ("SYSTEM.ADMIN.SVRCONN", "ADDRESSMAP"),
        ("SYSTEM.*", "ADDRESSMAP"),
        ("*", "BLOCKUSER"),
    ]
    assert not any("MCAUSER" in dict(record.attributes) for record in records)  # USERSRC(CHANNEL|NOACCESS)
    lines = session.render(session.execute("DISPLAY CHLAUTH('*') ALL")).splitlines()
    assert "   USERLIST(*MQADMIN)                      WARN(NO)" in lines  # as runmqsc lays it out


def test_compression_lists_pair_with_their_neighbours(session):
    lines = session.render(session.execute("DISPLAY CHANNEL(SYSTEM.DEF.SVRCONN)")).splitlines()
    assert "   CERTLABL( )                             COMPHDR(NONE)" in lines
