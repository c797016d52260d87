"""LAB SITE and LAB NETWORK."""

from __future__ import annotations


def lines(session, command: str) -> list[str]:
    return session.render(session.execute(command)).splitlines()


def test_sites_and_cuts_are_shown_and_every_host_starts_in_main(session):
    session.execute("crtmqm -ll QM2 --host drhost")
    assert lines(session, "LAB NETWORK") == ["Site MAIN: drhost, qm1", "Every site reaches every other."]
    assert lines(session, "LAB SITE QMGR(QM2) SITE(dr)") == ["Host drhost is now in site DR."]
    assert lines(session, "LAB SITE HOST(spare) SITE(DR)") == ["Host spare is now in site DR."]
    assert lines(session, "LAB NETWORK CUT SITES(MAIN,DR)") == ["The network between sites MAIN and DR is cut."]
    assert lines(session, "LAB NETWORK") == ["Site DR: drhost, spare", "Site MAIN: qm1", "Cut: DR-MAIN"]
    assert not session.installation.network.topology.joined("qm1", "drhost")
    assert lines(session, "LAB NETWORK JOIN SITES(DR,MAIN)") == ["Sites DR and MAIN are joined."]
    assert session.installation.network.topology.joined("qm1", "drhost")


def test_the_current_queue_manager_is_placed_when_none_is_named(session):
    assert lines(session, "LAB SITE SITE(PROD)") == ["Host qm1 is now in site PROD."]


def test_wrong_forms_say_what_is_needed(session):
    for command in ("LAB NETWORK CUT", "LAB NETWORK CUT SITES(A)", "LAB NETWORK CUT SITES(A,A)",
                    "LAB NETWORK CUT JOIN SITES(A,B)", "LAB SITE QMGR(QM1) HOST(h) SITE(S)"):
        result = session.execute(command)
        assert not result.ok and session.render(result).startswith("mqsh: LAB "), command
    missing = session.execute("LAB SITE QMGR(NOPE) SITE(S)")
    assert not missing.ok and missing.responses[0].msgid == "AMQ8118E"
    assert session.execute("LAB SITE QMGR(QM1)").syntax_error  # SITE is required


def test_a_damaged_network_file_is_named(session):
    (session.installation.data_dir / "network.json").write_bytes(b"\x00\xff")
    shown = lines(session, "LAB NETWORK")
    assert shown[-1].startswith("mqsh: ") and "network.json is damaged" in shown[-1]
