"""LAB EXPLAIN CLUSTER through the shell: the last REFRESH or RESET CLUSTER, its records before and now, adding up."""

from __future__ import annotations

import errno
import json
import os

import pytest

from mqsh.model.cluster import explain as cluster_explain
from mqsh.shell.session import Session
from mqsh.store import files
from tests.model.cluster.conftest import cache, formed, member, run
from tests.recovery.helpers import run as lines


@pytest.fixture
def demo(data_dir):
    """DEMO: full repositories FR1 and FR2, PA hosting APP.Q, PB having put to it (so it knows it)."""
    session = formed(data_dir)
    run(
        session,
        "LAB USE QMGR(PA)",
        "DEFINE QLOCAL(APP.Q) CLUSTER(DEMO) DEFPSIST(YES)",
        "LAB USE QMGR(PB)",
        "LAB PUT QUEUE(APP.Q)",
    )
    yield session
    session.close()


def explained(session: Session, cluster: str = "DEMO") -> tuple[dict, list[dict]]:
    """LAB EXPLAIN CLUSTER as --format json gives it: the messages' text, and the records."""
    session.output_format = "json"
    try:
        answer = json.loads(session.render(session.execute(f"LAB EXPLAIN CLUSTER({cluster})")))
    finally:
        session.output_format = "mqsc"
    assert answer["ok"], answer
    return answer, answer["objects"]


def fates(records: list[dict]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for record in records:
        found.setdefault(record["FATE"], []).append(record.get("QUEUE") or record["CLUSQMGR"])
    return {fate: sorted(names) for fate, names in found.items()}


def sums_add_up(records: list[dict], now_held: int) -> None:
    before = [record for record in records if "SEQBEFORE" in record]
    now = [record for record in records if "SEQNOW" in record]
    removed = [record for record in records if record["FATE"] in ("REMOVED", "RELEARNED")]
    learned = [record for record in records if record["FATE"] in ("RELEARNED", "LEARNED")]
    gone = [record for record in records if record["FATE"] == "GONE"]
    defined = [record for record in records if record["FATE"] == "OWN" and "SEQBEFORE" not in record]
    assert len(before) - len(removed) + len(learned) + len(defined) - len(gone) == len(now) == now_held


def test_nothing_recorded_before_a_refresh_or_reset(demo):
    assert lines(demo, "LAB EXPLAIN CLUSTER(DEMO)") == [
        "No REFRESH CLUSTER, RESET CLUSTER or restore of cluster DEMO on queue manager 'PB' is recorded: none has been "
        "here, or the record of it cannot be read."
    ]


def test_a_partial_repository_refresh_keeps_the_full_repositories_and_learns_the_rest_again(demo):
    run(demo, "LAB CLOCK ADVANCE(3D)", "REFRESH CLUSTER(DEMO)")
    answer, records = explained(demo)
    assert fates(records) == {"KEPT": ["FR1", "FR2"], "OWN": ["PB"], "RELEARNED": ["APP.Q", "PA"]}
    by_name = {record.get("QUEUE") or record["CLUSQMGR"]: record for record in records}
    own = by_name["PB"]
    assert isinstance(own["SEQNOW"], int) and own["SEQNOW"] > own["SEQBEFORE"]
    assert (own["DAYSBEFORE"], own["DAYSNOW"]) == (27, 30)  # renumbered and published again at once
    assert by_name["APP.Q"]["FROM"] in ("FR1", "FR2") and by_name["PA"]["FROM"] in ("FR1", "FR2")
    assert "FROM" not in by_name["FR1"]
    sums_add_up(
        records, len([item for item in cache(demo, "PB").records(cluster="DEMO") if not item.deleted])
    )
    text = lines(demo, "LAB EXPLAIN CLUSTER(DEMO)")
    assert (
        text[0] == "Last REFRESH CLUSTER(DEMO) REPOS(NO) on queue manager 'PB', a partial repository, at "
        "2026-05-04 09:00:00."
    )
    assert "Cluster DEMO in the repository of 'PB': 5 before - 2 removed + 2 learned since = 5 now." in text
    assert any(
        line.startswith("Learned since: 2 removed by the command and learned again; sent 2 by FR")
        for line in text
    )


def test_a_reset_on_a_full_repository_removes_the_member_and_its_queue(demo):
    run(demo, "LAB USE QMGR(FR1)", "RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMNAME(PA) QUEUES(YES)")
    _answer, records = explained(demo)
    assert fates(records)["REMOVED"] == ["APP.Q", "PA"]
    assert fates(records)["OWN"] == ["FR1"]
    removed = [record for record in records if record["FATE"] == "REMOVED"]
    assert all("SEQNOW" not in record and record["DAYSBEFORE"] == 30 for record in removed)
    sums_add_up(
        records, len([item for item in cache(demo, "FR1").records(cluster="DEMO") if not item.deleted])
    )
    text = lines(demo, "LAB EXPLAIN CLUSTER(DEMO)")
    assert text[1].startswith(
        "It removed queue manager PA (QMID PA_2026-05-01_09.00.00) from its repository (2 records)"
    )


def test_a_reset_a_member_is_told_of_after_its_refresh_is_its_last_operation(demo):
    """PB refreshes, keeping FR1's record; then FR2 force-removes FR1, and PB, told of it, drops it:
    PB's last operation is now that reset, which removed FR1's record from the four it held."""
    run(
        demo,
        "REFRESH CLUSTER(DEMO)",
        "LAB USE QMGR(FR2)",
        "RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMNAME(FR1) QUEUES(NO)",
        "LAB USE QMGR(PB)",
    )
    _answer, records = explained(demo)
    assert fates(records) == {"REMOVED": ["FR1"], "KEPT": ["APP.Q", "FR2", "PA"], "OWN": ["PB"]}
    sums_add_up(
        records, len([item for item in cache(demo, "PB").records(cluster="DEMO") if not item.deleted])
    )
    text = lines(demo, "LAB EXPLAIN CLUSTER(DEMO)")
    assert "Cluster DEMO in the repository of 'PB': 5 before - 1 removed = 4 now." in text


def test_a_queue_manager_not_running_is_explained_from_its_files(demo):
    run(demo, "REFRESH CLUSTER(DEMO)", "endmqm PB")
    _answer, records = explained(demo)
    assert fates(records)["RELEARNED"] == ["APP.Q", "PA"]


def test_a_damaged_record_reads_as_none(demo):
    run(demo, "REFRESH CLUSTER(DEMO)")
    path = demo.installation.paths("PB").qmgr_dir / cluster_explain.EXPLAIN_FILE
    path.write_bytes(path.read_bytes()[:-5])
    assert lines(demo, "LAB EXPLAIN CLUSTER(DEMO)")[0].startswith(
        "No REFRESH CLUSTER, RESET CLUSTER or restore of cluster DEMO"
    )


def test_on_a_full_disk_the_refresh_goes_on_without_its_record(demo, monkeypatch):
    real = files.atomic_write

    def full(path, data, sync=False):
        if path.name == cluster_explain.EXPLAIN_FILE:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(path, data, sync)

    monkeypatch.setattr(files, "atomic_write", full)
    assert lines(demo, "REFRESH CLUSTER(DEMO)") == ["AMQ8559I: IBM MQ cluster refreshed."]
    monkeypatch.setattr(files, "atomic_write", real)
    assert not (demo.installation.paths("PB").qmgr_dir / cluster_explain.EXPLAIN_FILE).exists()
    assert lines(demo, "LAB EXPLAIN CLUSTER(DEMO)")[0].startswith(
        "No REFRESH CLUSTER, RESET CLUSTER or restore"
    )


def test_each_cluster_keeps_its_own_last_operation(demo):
    run(demo, "REFRESH CLUSTER(DEMO)")
    assert lines(demo, "LAB EXPLAIN CLUSTER(OTHER)")[0].startswith(
        "No REFRESH CLUSTER, RESET CLUSTER or restore of cluster OTHER"
    )
    assert lines(demo, "LAB EXPLAIN CLUSTER(DEMO)")[0].startswith("Last REFRESH CLUSTER(DEMO)")


def test_a_full_repository_refresh_keeps_every_queue_manager_and_learns_the_queues_again(demo):
    run(demo, "LAB USE QMGR(FR1)", "REFRESH CLUSTER(DEMO)")
    _answer, records = explained(demo)
    assert fates(records) == {"KEPT": ["FR2", "PA", "PB"], "OWN": ["FR1"], "RELEARNED": ["APP.Q"]}
    assert [record["FROM"] for record in records if record["FATE"] == "RELEARNED"] == ["FR2"]
    assert (
        "and every queue manager's record (a full repository)" in lines(demo, "LAB EXPLAIN CLUSTER(DEMO)")[1]
    )


def test_repos_yes_removes_the_full_repositories_too_and_finds_them_again(demo):
    run(demo, "REFRESH CLUSTER(DEMO) REPOS(YES)")
    _answer, records = explained(demo)
    assert fates(records) == {"OWN": ["PB"], "RELEARNED": ["APP.Q", "FR1", "FR2", "PA"]}
    sums_add_up(
        records, len([item for item in cache(demo, "PB").records(cluster="DEMO") if not item.deleted])
    )
    assert (
        "the full repositories' too, and found them again through its manual cluster-sender channels"
        in lines(demo, "LAB EXPLAIN CLUSTER(DEMO)")[1]
    )


def test_a_restore_is_explained_with_the_own_records_the_full_repositories_hold_higher(demo):
    run(
        demo,
        "endmqm PA",
        "LAB BACKUP QMGR(PA) TO(WEEK0)",
        "strmqm PA",
        "LAB USE QMGR(PA)",
        "ALTER QLOCAL(APP.Q) DESCR('changed after the backup')",
        "endmqm PA",
        "LAB RESTORE QMGR(PA) FROM(WEEK0)",
        "strmqm PA",
    )
    _answer, records = explained(demo)
    queue = next(record for record in records if record.get("QUEUE") == "APP.Q")
    assert queue["FATE"] == "OWN" and queue["FULLSEQ"] == queue["SEQNOW"] + 1
    text = lines(demo, "LAB EXPLAIN CLUSTER(DEMO)")
    assert text[0].startswith(
        "Last change to cluster DEMO in the repository of queue manager 'PA', a partial "
        "repository: restored from backup WEEK0 (taken at "
    )
    assert text[-1] == (
        "Its own records a full repository holds at a higher number - their updates from it are "
        f"dropped as old until REFRESH CLUSTER numbers them anew: APP.Q (its {queue['SEQNOW']}; "
        f"FR1 holds {queue['FULLSEQ']})."
    )
    run(demo, "REFRESH CLUSTER(DEMO)")
    _answer, records = explained(demo)
    queue = next(record for record in records if record.get("QUEUE") == "APP.Q")
    assert queue["FULLSEQ"] == queue["SEQNOW"]  # renumbered above, and taken


def test_a_reset_of_a_rebuilt_queue_managers_old_qmid_tells_its_rejoin(demo):
    """PA built again (a new QMID) and its queue defined again; FR1 force-removes the old QMID:
    the old records are removed, the new QMID's stay, and the explanation says PA is back."""
    run(demo, "endmqm -i PA", "dltmqm PA", "LAB CLOCK ADVANCE(5M)")
    member(demo, "PA", False)
    run(demo, "DEFINE QLOCAL(APP.Q) CLUSTER(DEMO)", "LAB CLOCK ADVANCE(2M)", "LAB USE QMGR(FR1)")
    run(demo, "RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMID('PA_2026-05-01_09.00.00') QUEUES(YES)")
    _answer, records = explained(demo)
    by_fate = {
        (record.get("QUEUE") or record["CLUSQMGR"], record["QMID"]): record["FATE"] for record in records
    }
    assert (
        by_fate[("PA", "PA_2026-05-01_09.00.00")] == by_fate[("APP.Q", "PA_2026-05-01_09.00.00")] == "REMOVED"
    )
    assert by_fate[("PA", "PA_2026-05-01_09.05.00")] == by_fate[("APP.Q", "PA_2026-05-01_09.05.00")] == "KEPT"
    sums_add_up(
        records, len([item for item in cache(demo, "FR1").records(cluster="DEMO") if not item.deleted])
    )
    assert lines(demo, "LAB EXPLAIN CLUSTER(DEMO)")[2] == (
        "Queue manager PA is in the cluster again with a new QMID, PA_2026-05-01_09.05.00: the reset removed "
        "the records of QMID PA_2026-05-01_09.00.00 only; the new one's stay."
    )


def test_a_reset_of_the_middle_qmid_of_three_names_the_newest_as_new_and_the_oldest_as_left(demo):
    """PA built again twice: a reset of its second QMID tells the rejoin with the third, the one in
    use, and names the first - older, and not named by the reset - as still held."""
    for _ in range(2):
        run(demo, "endmqm -i PA", "dltmqm PA", "LAB CLOCK ADVANCE(5M)")
        member(demo, "PA", False)
        run(demo, "DEFINE QLOCAL(APP.Q) CLUSTER(DEMO)", "LAB CLOCK ADVANCE(2M)")
    run(demo, "LAB USE QMGR(FR1)")
    run(demo, "RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMID('PA_2026-05-01_09.05.00') QUEUES(YES)")
    assert lines(demo, "LAB EXPLAIN CLUSTER(DEMO)")[2] == (
        "Queue manager PA is in the cluster again with a new QMID, PA_2026-05-01_09.12.00: the reset removed "
        "the records of QMID PA_2026-05-01_09.05.00 only; the new one's stay. The repository still holds "
        "PA's records of QMID PA_2026-05-01_09.00.00, which the reset did not name: a RESET CLUSTER of each "
        "QMID removes them."
    )


def test_a_reset_of_a_queue_manager_not_built_again_tells_no_rejoin(demo):
    run(demo, "LAB USE QMGR(FR1)", "RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMNAME(PA) QUEUES(YES)")
    assert not any("in the cluster again" in line for line in lines(demo, "LAB EXPLAIN CLUSTER(DEMO)"))


def test_a_reset_of_a_qmid_it_never_held_says_so(demo):
    run(
        demo,
        "LAB USE QMGR(FR1)",
        "RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMID('PX_2026-05-01_09.00.00') QUEUES(YES)",
    )
    assert lines(demo, "LAB EXPLAIN CLUSTER(DEMO)")[1].startswith(
        "It removed QMID PX_2026-05-01_09.00.00, of which it held no record, from its repository (0 records)"
    )


def test_a_member_told_of_a_reset_explains_what_it_removed_and_who_told_it(demo):
    """FR1 force-removes PA; PB, a partial repository told of it by FR1, keeps what it removed."""
    run(demo, "LAB USE QMGR(FR1)", "RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMNAME(PA) QUEUES(YES)")
    fr1 = cache(demo, "FR1").records(cluster="DEMO", own=True)[0].qmid
    run(demo, "LAB USE QMGR(PB)")
    _answer, records = explained(demo)
    assert fates(records)["REMOVED"] == ["APP.Q", "PA"]
    sums_add_up(
        records, len([item for item in cache(demo, "PB").records(cluster="DEMO") if not item.deleted])
    )
    text = lines(demo, "LAB EXPLAIN CLUSTER(DEMO)")
    assert text[0].startswith(
        "Last RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMID('PA_2026-05-01_09.00.00') QUEUES(YES) "
        "on queue manager 'PB', a partial repository, at "
    )
    assert text[1] == (
        "It removed queue manager PA (QMID PA_2026-05-01_09.00.00) from its repository (2 records) as "
        f"full repository QMID {fr1} told it to; updates from it are ignored for 10 seconds."
    )


def test_a_record_kept_then_deleted_by_its_owner_is_gone_since(demo):
    """PB refreshes, keeping FR1's record (a full repository's); then FR1 deletes its cluster-receiver
    channel, and PB, told of the deletion, no longer holds it: in the refresh's explanation it is
    GONE since."""
    run(demo, "REFRESH CLUSTER(DEMO)", "LAB CLOCK ADVANCE(1M)")
    run(demo, "LAB USE QMGR(FR1)", "DELETE CHANNEL(TO.FR1)", "LAB CLOCK ADVANCE(1M)", "LAB USE QMGR(PB)")
    _answer, records = explained(demo)
    assert fates(records)["GONE"] == ["FR1"]
    sums_add_up(
        records, len([item for item in cache(demo, "PB").records(cluster="DEMO") if not item.deleted])
    )
