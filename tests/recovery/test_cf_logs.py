"""What a recovery reads of each member's log: the newest extent parsed once per version of the file."""

from __future__ import annotations

from mqsh.recovery import cf_columnar, cf_logs
from mqsh.store import columnar
from tests.recovery.cf_group import CF, Group


def test_the_newest_extent_is_parsed_again_only_once_it_changed(tmp_path, monkeypatch):
    group = Group(tmp_path, members=("QM1",), extent_bytes=1 << 20)
    first = group.put("QM1", None)
    parsed = []
    parse = columnar.extent_table
    monkeypatch.setattr(columnar, "extent_table", lambda *args: parsed.append(args) or parse(*args))
    assert cf_columnar.recover(CF, group.dirs, None).entries["e"].to_pylist() == [first]
    assert cf_columnar.recover(CF, group.dirs, None).entries["e"].to_pylist() == [first]
    assert len(parsed) == 1
    second = group.put("QM1", None)
    group.close()
    assert cf_columnar.recover(CF, group.dirs, None).entries["e"].to_pylist() == [first, second]
    assert len(parsed) == 2
    assert set(cf_logs._parsed_newest) == {group.dirs["QM1"]}
