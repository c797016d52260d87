"""SET, DISPLAY and DELETE POLICY: security policies kept by the queue manager."""

from __future__ import annotations


def lines(session, command: str) -> list[str]:
    return session.render(session.execute(command)).splitlines()


def test_a_policy_is_set_and_displayed_with_its_algorithms_and_names(session):
    assert lines(
        session,
        "SET POLICY(APP.Q) SIGNALG(SHA256) ENCALG(AES256) SIGNER('CN=alice,O=IBM,C=US') "
        "RECIP('CN=bob,O=IBM,C=US')",
    ) == ["AMQ8990I: IBM MQ security policy set."]
    assert lines(session, "SET POLICY(APP.Q) RECIP('CN=carol,O=IBM,C=US') ACTION(ADD)") == [
        "AMQ8990I: IBM MQ security policy set."
    ]
    assert [line.rstrip() for line in lines(session, "DISPLAY POLICY(APP.Q)")] == [
        "AMQ8992I: Display security policy details.",
        "   POLICY(APP.Q)                           SIGNALG(SHA256)",
        "   ENCALG(AES256)",
        "   SIGNER(CN=alice,O=IBM,C=US)",
        "   RECIP(CN=bob,O=IBM,C=US",
        "        ,CN=carol,O=IBM,C=US)",
        "   ENFORCE                                 KEYREUSE(DISABLED)",
    ]


def test_replace_starts_again_and_remove_takes_names_away(session):
    session.execute("SET POLICY(P1) SIGNALG(SHA1) SIGNER(A, B) TOLERATE KEYREUSE(10)")
    session.execute("SET POLICY(P1) SIGNER(A) ACTION(REMOVE)")
    shown = dict(session.execute("DISPLAY POLICY(P1)").responses[0].attributes)
    assert shown["SIGNER"] == ["B"] and shown["KEYREUSE"] == "10" and "TOLERATE" in shown
    session.execute("SET POLICY(P1) ENCALG(AES128) RECIP(R1)")
    shown = dict(session.execute("DISPLAY POLICY(P1)").responses[0].attributes)
    assert shown["SIGNALG"] == "NONE" and shown["SIGNER"] == [] and "ENFORCE" in shown


def test_generic_display_delete_and_not_found(session):
    assert lines(session, "DISPLAY POLICY(*)") == ["AMQ8993E: Security policy * not found."]
    session.execute("SET POLICY(Q.B) SIGNALG(MD5)")
    session.execute("SET POLICY(Q.A) SIGNALG(SHA512)")
    assert [dict(record.attributes)["POLICY"] for record in session.execute("DIS POLICY(Q.*)").responses] == [
        "Q.A",
        "Q.B",
    ]
    assert lines(session, "DELETE POLICY(Q.A)") == ["AMQ8991I: IBM MQ security policy deleted."]
    missing = session.execute("DELETE POLICY(Q.A)")
    assert not missing.ok and session.render(missing).splitlines() == [
        "AMQ8993E: Security policy Q.A not found."
    ]
    assert session.execute("DELETE POLICY(Q.A) IGNSTATE(YES)").ok
    assert not session.execute("SET POLICY(Q.A) SIGNER(X) ACTION(REMOVE)").ok


def test_policies_are_kept_on_the_protection_queue_and_survive_a_restart(session):
    assert session.execute("DISPLAY QLOCAL(SYSTEM.PROTECTION.POLICY.QUEUE)").ok
    session.execute("SET POLICY(APP.Q) SIGNALG(SHA384)")
    assert session.execute("endmqm -i QM1").ok and session.execute("strmqm QM1").ok
    shown = dict(session.execute("DISPLAY POLICY(APP.Q)").responses[0].attributes)
    assert shown["SIGNALG"] == "SHA384"
