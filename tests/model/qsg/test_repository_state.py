"""The repository's state tables: structure status, connections, the SMDS array's entries, busy marks."""

from __future__ import annotations

from mqsh.model.qsg.repository import SharedRepository

NOW, LATER = "2026-11-25 08:00:00", "2026-11-25 09:00:00"


def test_an_entry_is_made_when_first_saved_and_reads_back_whole(tmp_path):
    with SharedRepository(tmp_path, "QSGA", create_at=NOW) as repository:
        assert repository.smds_entry("CSQSYSAPPL", "QM1") is None
        repository.save_smds_entry("CSQSYSAPPL", "QM2", "ACTIVE", "ENABLED", None, NOW, ["QM1"], NOW, 1)
        repository.save_smds_entry("CSQSYSAPPL", "QM1", "FAILED", "SUSPENDED", LATER, NOW, [], None, 0)
        assert repository.smds_entry("CSQSYSAPPL", "QM2") == ("ACTIVE", "ENABLED", None, NOW, ["QM1"], NOW, 1)
        assert repository.smds_owners("CSQSYSAPPL") == ["QM1", "QM2"]
        assert repository.own_data_sets("QM1", "SUSPENDED", ["FAILED", "RECOVERED"]) == [
            ("CSQSYSAPPL", "FAILED")
        ]
        assert repository.own_data_sets("QM2", "ENABLED", ["RECOVERED"]) == []


def test_a_structure_that_fails_keeps_when_and_loses_its_connections(tmp_path):
    with SharedRepository(tmp_path, "QSGA", create_at=NOW) as repository:
        assert repository.structure_status("CSQSYSAPPL") is None
        repository.set_structure_status("CSQSYSAPPL", "ACTIVE", None)
        repository.connect_member("CSQSYSAPPL", "QM1", NOW)
        repository.connect_member("CSQSYSAPPL", "QM1", LATER)  # still connected: since it first did
        assert repository.connections("CSQSYSAPPL") == [("QM1", NOW, None)]
        repository.connection_failed("CSQSYSAPPL", "QM1", LATER)
        repository.connect_member("CSQSYSAPPL", "QM1", LATER)  # back after its failure: since now
        assert repository.connections("CSQSYSAPPL") == [("QM1", LATER, None)]
        repository.set_structure_status("CSQSYSAPPL", "FAILED", LATER)
        assert repository.structure_status("CSQSYSAPPL") == ("FAILED", LATER, None, None)
        assert repository.connections("CSQSYSAPPL") == []


def test_busy_marks_purge_points_and_lost_counts(tmp_path):
    with SharedRepository(tmp_path, "QSGA", create_at=NOW) as repository:
        repository.mark_busy("CSQSYSAPPL", "QM1", "RECOVER")
        assert repository.busy_structures() == ["CSQSYSAPPL"]
        assert repository.structure_status("CSQSYSAPPL") == ("NOTFOUND", None, "QM1", "RECOVER")
        repository.clear_busy("CSQSYSAPPL")
        assert repository.busy_structures() == []
        repository.record_lost("CSQSYSAPPL", 7)
        assert repository.lost_at_failure("CSQSYSAPPL") == 7
        assert repository.purge_point("CSQSYSAPPL") is None
        repository.record_purge("CSQSYSAPPL", 0x1F, {"QM1": 12}, LATER, 7)
        assert repository.purge_point("CSQSYSAPPL") == (0x1F, {"QM1": 12}, LATER, 7)
        assert repository.lost_at_failure("CSQSYSAPPL") is None  # a purge settles what was lost
