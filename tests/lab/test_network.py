"""LAB SITE and LAB NETWORK."""

from __future__ import annotations

from mqsh.model.network.topology import default_address

QM1, DRHOST = default_address("qm1"), default_address("drhost")


def lines(session, command: str) -> list[str]:
    return session.render(session.execute(command)).splitlines()


def test_sites_and_cuts_are_shown_and_every_host_starts_in_main(session):
    session.execute("crtmqm -ll QM2 --host drhost")
    assert lines(session, "LAB NETWORK") == [
        f"Site MAIN: drhost ({DRHOST}), qm1 ({QM1})",
        "Every site reaches every other.",
    ]
    assert lines(session, "LAB SITE QMGR(QM2) SITE(dr)") == ["Host drhost is now in site DR."]
    assert lines(session, "LAB SITE HOST(spare) SITE(DR)") == ["Host spare is now in site DR."]
    assert lines(session, "LAB NETWORK CUT SITES(MAIN,DR)") == [
        "The network between sites MAIN and DR is cut."
    ]
    assert lines(session, "LAB NETWORK") == [
        f"Site DR: drhost ({DRHOST}), spare ({default_address('spare')})",
        f"Site MAIN: qm1 ({QM1})",
        "Cut: DR-MAIN",
    ]
    assert not session.installation.network.topology.joined("qm1", "drhost")
    assert lines(session, "LAB NETWORK JOIN SITES(DR,MAIN)") == ["Sites DR and MAIN are joined."]
    assert session.installation.network.topology.joined("qm1", "drhost")


def test_the_current_queue_manager_is_placed_when_none_is_named(session):
    assert lines(session, "LAB SITE SITE(PROD)") == ["Host qm1 is now in site PROD."]


def test_wrong_forms_say_what_is_needed(session):
    for command in (
        "LAB NETWORK CUT",
        "LAB NETWORK CUT SITES(A)",
        "LAB NETWORK CUT SITES(A,A)",
        "LAB NETWORK CUT JOIN SITES(A,B)",
        "LAB SITE QMGR(QM1) HOST(h) SITE(S)",
        "LAB SITE QMGR(QM1)",
        "LAB SITE ADDRESS(10.1.2)",
        "LAB SITE ADDRESS(10.1.2.256)",
        "LAB SITE ADDRESS(prodhost)",
    ):
        result = session.execute(command)
        assert not result.ok and session.render(result).startswith("mqsh: LAB "), command
    missing = session.execute("LAB SITE QMGR(NOPE) SITE(S)")
    assert not missing.ok and missing.responses[0].msgid == "AMQ8118E"
    assert lines(session, "LAB NETWORK")[0] == f"Site MAIN: qm1 ({QM1})"  # nothing was changed


def test_every_host_has_an_address_derived_from_its_name_until_one_is_set(session):
    assert default_address("QM1") == QM1 and QM1.startswith("10.") and QM1 != DRHOST
    assert 1 <= int(QM1.split(".")[3]) <= 254
    assert lines(session, "LAB SITE ADDRESS(10.1.0.05)") == ["Host qm1 now has address 10.1.0.5."]
    assert lines(session, "LAB SITE HOST(drhost) SITE(DR) ADDRESS(10.2.0.7)") == [
        "Host drhost is now in site DR.",
        "Host drhost now has address 10.2.0.7.",
    ]
    assert lines(session, "LAB SITE HOST(spare) ADDRESS(10.1.0.9)") == [
        "Host spare now has address 10.1.0.9."
    ]
    assert lines(session, "LAB NETWORK")[:2] == [
        "Site DR: drhost (10.2.0.7)",
        "Site MAIN: qm1 (10.1.0.5), spare (10.1.0.9)",
    ]
    # kept with the topology: another process sees the same addresses
    topology = type(session.installation.network.topology)(session.installation.data_dir / "network.json")
    assert topology.address_of("QM1") == "10.1.0.5" and topology.address_of("elsewhere") == default_address(
        "elsewhere"
    )


def test_a_damaged_network_file_is_named(session):
    (session.installation.data_dir / "network.json").write_bytes(b"\x00\xff")
    shown = lines(session, "LAB NETWORK")
    assert shown[-1].startswith("mqsh: ") and "network.json is damaged" in shown[-1]
    assert shown[0] == f"Site MAIN: qm1 ({QM1})"  # and every host has its default address again
