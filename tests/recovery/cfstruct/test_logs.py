"""What a recovery reads of each member's log: the newest extent parsed once per version of the file."""

from __future__ import annotations

from mqsh.recovery.cfstruct import columnar as cf_columnar
from mqsh.recovery.cfstruct import logs as cf_logs
from mqsh.store import extent_tables
from tests.recovery.cfstruct.cf_group import CF, Group


def test_the_newest_extent_is_parsed_again_only_once_it_changed(tmp_path, monkeypatch):
    group = Group(tmp_path, members=("QM1",), extent_bytes=1 << 20)
    first = group.put("QM1", None)
    parsed = []
    parse = extent_tables.extent_table
    monkeypatch.setattr(extent_tables, "extent_table", lambda *args: parsed.append(args) or parse(*args))
    assert cf_columnar.recover(CF, group.dirs, None).entries["e"].to_pylist() == [first]
    assert cf_columnar.recover(CF, group.dirs, None).entries["e"].to_pylist() == [first]
    assert len(parsed) == 1
    second = group.put("QM1", None)
    group.close()
    assert cf_columnar.recover(CF, group.dirs, None).entries["e"].to_pylist() == [first, second]
    assert len(parsed) == 2
    assert cf_logs._parsed_newest[group.dirs["QM1"]][0].parent == group.dirs["QM1"]


def test_parsed_extents_are_let_go_beyond_a_size(tmp_path, monkeypatch):
    group = Group(tmp_path, members=("QM1", "QM2"), extent_bytes=1 << 20)
    group.put("QM1", None)
    group.put("QM2", None)
    group.close()
    monkeypatch.setattr(cf_logs, "_parsed_newest", {})
    cf_columnar.recover(CF, group.dirs, None)
    assert set(cf_logs._parsed_newest) == set(group.dirs.values())
    monkeypatch.setattr(cf_logs, "PARSED_KEPT_BYTES", cf_logs._parsed_newest[group.dirs["QM2"]][2].nbytes)
    cf_logs._parsed_newest.pop(group.dirs["QM2"])
    cf_columnar.recover(CF, group.dirs, None)  # QM2's parsed again, then QM1's (parsed first) let go
    assert set(cf_logs._parsed_newest) == {group.dirs["QM2"]}
