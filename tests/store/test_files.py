"""Checksummed documents: a damaged object file is told apart from a good one."""

from __future__ import annotations

import pytest

from mqsh.store.files import CorruptFile, read_document, write_document


def test_round_trip(tmp_path):
    write_document(tmp_path / "doc", {"a": [1, 2]})
    assert read_document(tmp_path / "doc") == {"a": [1, 2]}


@pytest.mark.parametrize("damage", [lambda b: b[:-3], lambda b: b.replace(b"1", b"7"), lambda b: b"junk"])
def test_truncated_or_edited_files_are_corrupt(tmp_path, damage):
    path = tmp_path / "doc"
    write_document(path, {"a": [1, 2]})
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(CorruptFile):
        read_document(path)
