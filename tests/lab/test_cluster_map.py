"""LAB MAP CLUSTER through the shell: the cluster's members, sites, cuts and channels, fitted to the terminal, and
as a valid SVG document."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from mqsh.shell.session import Session
from tests.model.cluster.conftest import START, listening, receiving, run, sending
from tests.recovery.helpers import run as lines

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def split(data_dir):
    """DEMO: FR1 and PA in site PROD; DR, a new queue manager with PA's CLUSRCVR name, in site DR, cut off."""
    session = Session(data_dir)
    run(session, f"LAB CLOCK SET('{START}')")
    for name, full in (("FR1", True), ("PA", False)):
        listening(session, name)
        receiving(session, name, full)
        run(session, f"LAB SITE QMGR({name}) SITE(PROD)")
    sending(session, "PA")
    run(
        session,
        "LAB USE QMGR(PA)",
        "DEFINE QLOCAL(APP.Q) CLUSTER(DEMO)",
        "LAB NETWORK CUT SITES(PROD,DR)",
        "crtmqm DR --host dr-pa",
        "LAB SITE HOST(dr-pa) SITE(DR)",
        "strmqm DR",
        "LAB USE QMGR(DR)",
        "DEFINE LISTENER(TCP) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)",
        "START LISTENER(TCP)",
    )
    receiving(session, "DR", False, channel="TO.PA")
    sending(session, "DR")
    yield session
    session.close()


def test_the_members_their_sites_the_cut_and_the_channels(split, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    text = lines(split, "LAB MAP CLUSTER(DEMO)")
    assert text[0] == "Cluster DEMO at 2026-05-01 09:00:00: 3 queue managers, 1 full repository."
    assert all(len(line) <= 80 for line in text), max(text, key=len)
    frames = [line for line in text if line.startswith("┏━ Site")]
    assert [frame.split()[2] for frame in frames] == ["DR", "PROD"]
    assert any(line.startswith("┃ ■ FR1, full repository") for line in text)
    assert any(line.startswith("┃ □ PA, partial repository") for line in text)
    assert " ╳ The network between sites DR and PROD is cut." in text
    assert "  PA ──TO.FR1──▶ FR1   CLUSSDRB RUNNING" in text
    assert "  DR ──TO.FR1──╳ FR1   CLUSSDR RETRYING, across a cut" in text
    table = [line for line in text if line.startswith("┃ FR1 ")]
    assert table and "PA_2026-05-01_09.00.00" in table[0]


def test_a_narrow_terminal_still_fits(split, monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    text = lines(split, "LAB MAP CLUSTER(DEMO)")
    assert all(len(line) <= 60 for line in text), max(text, key=len)


def test_a_record_behind_its_owner_is_told(split, monkeypatch):
    """FR1 holds PA's record; with the network between them cut, PA changes it: FR1 is behind."""
    monkeypatch.setenv("COLUMNS", "100")  # the width it has with no terminal: the note fits on one line
    run(
        split,
        "LAB USE QMGR(PA)",
        "LAB SITE QMGR(PA) SITE(ISLAND)",
        "LAB NETWORK CUT SITES(PROD,ISLAND)",
        "ALTER CHANNEL(TO.PA) CHLTYPE(CLUSRCVR) DESCR('changed')",
    )
    table = [line for line in lines(split, "LAB MAP CLUSTER(DEMO)") if line.startswith("┃ FR1 ")]
    assert any("behind the owner's" in line for line in table), table


def test_the_svg_parses_with_a_rect_per_member_a_line_per_channel_and_the_cut(split, tmp_path):
    target = tmp_path / "demo.svg"
    assert lines(split, f"LAB MAP CLUSTER(DEMO) SVG('{target}')") == [
        f"Cluster DEMO: drawn as SVG in {target}."
    ]
    root = ET.parse(target).getroot()
    assert root.tag == SVG + "svg"
    members = [rect for rect in root.iter(SVG + "rect") if (rect.get("class") or "").startswith("qmgr")]
    assert sorted(rect.get("class") for rect in members) == ["qmgr full", "qmgr partial", "qmgr partial"]
    classes = [line.get("class") for line in root.iter(SVG + "line")]
    assert "cut" in classes
    assert "channel RUNNING" in classes and "channel RETRYING cut" in classes
    beliefs = [text.text for text in root.iter(SVG + "text") if text.get("class") == "belief"]
    assert any(belief.startswith("FR1   PA   ") for belief in beliefs)


def test_a_cluster_no_member_is_in(split):
    assert lines(split, "LAB MAP CLUSTER(NONE)") == [
        "No queue manager of this data directory is in cluster NONE: none holds its own record there (a CLUSRCVR "
        "channel naming the cluster)."
    ]


def test_an_unwritable_svg_is_refused(split, tmp_path):
    result = split.execute(f"LAB MAP CLUSTER(DEMO) SVG('{tmp_path / 'no' / 'such' / 'dir.svg'}')")
    assert not result.ok and "the picture cannot be written to" in split.render(result)


def test_help_knows_the_command_and_its_keywords(session):
    text = session.render(session.execute("help LAB MAP"))
    assert text.startswith("LAB MAP: ") and "CLUSTER  Cluster to draw" in text and "SVG " in text
    assert "last REFRESH CLUSTER or RESET CLUSTER" in session.render(
        session.execute("help LAB EXPLAIN CLUSTER")
    )
