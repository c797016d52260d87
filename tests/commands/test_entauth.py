"""DISPLAY ENTAUTH: an entity's authorities on one object, from every record whose profile covers it."""

from __future__ import annotations

import pytest

from mqsh.commands.entauth import profile_matches


@pytest.mark.parametrize(
    "profile, name, matches",
    [
        ("APP.Q1", "APP.Q1", True),
        ("APP.Q1", "APP.Q10", False),
        ("APP.*", "APP.Q1", True),
        ("APP.*", "APP", False),
        ("APP.*", "APP.A.B", False),  # '*' stays in its qualifier
        ("APP.Q?", "APP.Q1", True),
        ("APP.Q?", "APP.Q10", False),
        ("A*.Q", "ABC.Q", True),
        ("*", "ANY", True),
        ("*", "A.B", False),
        ("APP.**", "APP.A.B", True),
        ("APP.**", "APP", True),
        ("APP.**", "APPX.A", False),  # none or many qualifiers
        ("**.REPLY", "A.B.REPLY", True),
        ("**.REPLY", "REPLY", True),
        ("**.REPLY", "A.NOREPLY", False),
        ("A.**.Z", "A.Z", True),
        ("A.**.Z", "A.B.C.Z", True),
        ("A.**.Z", "A.BZ", False),
        ("**", "X.Y.Z", True),
        ("A+B", "A+B", True),
        ("A+B", "AAB", False),  # other characters are themselves
    ],
)
def test_profile_matching(profile, name, matches):
    assert profile_matches(profile, name) is matches


def entauth(session, text):
    result = session.execute(text)
    assert result.ok, session.render(result)
    return dict(result.responses[0].attributes)


def test_authorities_are_the_union_of_every_matching_record(session):
    assert session.execute("DEFINE QLOCAL(APP.ORDERS)").ok
    for profile, authorities in (
        ("APP.ORDERS", "PUT"),
        ("APP.*", "GET,INQ"),
        ("**", "DSP"),
        ("OTHER.*", "CLR"),
    ):
        assert session.execute(
            f"SET AUTHREC PROFILE('{profile}') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD({authorities})"
        ).ok
    # A record for another entity, and one for another object type, give nothing.
    session.execute("SET AUTHREC PROFILE('APP.*') OBJTYPE(QUEUE) GROUP('app') AUTHADD(CLR)")
    session.execute("SET AUTHREC PROFILE('APP.*') OBJTYPE(TOPIC) PRINCIPAL('app') AUTHADD(PUB)")
    record = entauth(session, "DISPLAY ENTAUTH PRINCIPAL('app') OBJNAME(APP.ORDERS) OBJTYPE(QUEUE)")
    assert record == {
        "ENTITY": "app",
        "ENTTYPE": "PRINCIPAL",
        "OBJNAME": "APP.ORDERS",
        "OBJTYPE": "QUEUE",
        "AUTHLIST": "DSP,GET,INQ,PUT",
    }
    shown = session.render(
        session.execute("DISPLAY ENTAUTH PRINCIPAL('app') OBJNAME(APP.ORDERS) OBJTYPE(QUEUE)")
    )
    assert "Display entity authority details." in shown


def test_no_matching_record_is_no_authority(session):
    record = entauth(session, "DISPLAY ENTAUTH GROUP('nobody') OBJNAME(QM1) OBJTYPE(QMGR) AUTHLIST")
    assert record["ENTTYPE"] == "GROUP" and record["AUTHLIST"] == "NONE"


def test_an_object_that_does_not_exist_is_not_found(session):
    result = session.execute("DISPLAY ENTAUTH PRINCIPAL('app') OBJNAME(NO.SUCH.Q) OBJTYPE(QUEUE)")
    assert not result.ok and result.responses[0].line() == "AMQ8147E: IBM MQ object NO.SUCH.Q not found."
    result = session.execute("DISPLAY ENTAUTH PRINCIPAL('app') OBJNAME(QM9) OBJTYPE(QMGR)")
    assert not result.ok and result.responses[0].msgid == "AMQ8147E"


def test_an_entity_is_required(session):
    result = session.execute("DISPLAY ENTAUTH OBJNAME(QM1) OBJTYPE(QMGR)")
    assert not result.ok and result.responses[0].msgid == "AMQ8425E"


def test_deleting_a_queue_deletes_its_records_unless_authrec_no(session):
    for name in ("Q1", "Q2"):
        session.execute(f"DEFINE QLOCAL({name})")
        session.execute(f"SET AUTHREC PROFILE({name}) OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT)")
    assert session.execute("DELETE QLOCAL(Q1)").ok
    assert session.execute("DELETE QLOCAL(Q2) AUTHREC(NO)").ok
    assert not session.execute("DISPLAY AUTHREC PROFILE(Q1) OBJTYPE(QUEUE)").ok
    assert session.execute("DISPLAY AUTHREC PROFILE(Q2) OBJTYPE(QUEUE)").ok
