"""SUSPEND and RESUME QMGR CLUSNL: the namelist is read when the command runs."""

from __future__ import annotations

import pytest

from tests.commands.conftest import run


@pytest.mark.parametrize("verb", ["SUSPEND", "RESUME"])
def test_a_clusnl_naming_no_namelist_is_not_found(session, verb):
    assert run(session, f"{verb} QMGR CLUSNL(NOSUCH.NL)") == ["AMQ8147E: IBM MQ object NOSUCH.NL not found."]


@pytest.mark.parametrize("verb", ["SUSPEND", "RESUME"])
def test_an_empty_namelist_names_no_cluster(session, verb):
    assert session.execute("DEFINE NAMELIST(EMPTY.NL)").ok
    assert run(session, f"{verb} QMGR CLUSNL(EMPTY.NL)") == [
        "AMQ8463E: Namelist EMPTY.NL is empty or wrong type."
    ]


def test_a_namelist_of_clusters_is_taken(session):
    assert session.execute("DEFINE NAMELIST(CLUSTERS) NAMES(DEMO,OTHER)").ok
    assert run(session, "SUSPEND QMGR CLUSNL(CLUSTERS)") == [
        "AMQ8488I: IBM MQ queue manager suspended from the cluster."
    ]


def test_a_queue_may_name_a_namelist_defined_after_it(session):
    assert session.execute("DEFINE QLOCAL(Q) CLUSNL(LATER.NL)").ok
    assert session.execute("DEFINE NAMELIST(LATER.NL) NAMES(DEMO)").ok
