"""Checksummed documents: a damaged object file is told apart from a good one."""

from __future__ import annotations

import pytest

from mqsh.store.files import (
    PAGE,
    ROOM,
    CorruptFile,
    encode_document,
    read_document,
    rewrite_encoded,
    write_document,
)


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


def test_trailing_blanks_after_the_document_are_padding_anything_else_is_damage(tmp_path):
    path = tmp_path / "doc"
    write_document(path, {"a": 1})
    path.write_bytes(path.read_bytes() + b"    ")
    assert read_document(path) == {"a": 1}
    path.write_bytes(path.read_bytes() + b"x")
    with pytest.raises(CorruptFile):
        read_document(path)


def test_a_new_document_is_made_with_room_to_grow(tmp_path):
    path = tmp_path / "folder" / "doc"
    rewrite_encoded(path, encode_document({"a": 1}), probably_new=True)
    assert path.stat().st_size == ROOM
    assert read_document(path) == {"a": 1}


@pytest.mark.parametrize("probably_new", [False, True])
def test_a_change_that_fits_is_written_in_place(tmp_path, probably_new):
    path = tmp_path / "doc"
    rewrite_encoded(path, encode_document({"descr": "a longer description than the next"}))
    inode = path.stat().st_ino
    rewrite_encoded(path, encode_document({"descr": "short"}), probably_new=probably_new)
    assert (path.stat().st_ino, path.stat().st_size) == (inode, ROOM)
    assert read_document(path) == {"descr": "short"}


def test_a_change_that_does_not_fit_replaces_the_file_whole(tmp_path):
    path = tmp_path / "doc"
    rewrite_encoded(path, encode_document({"descr": "short"}))
    inode = path.stat().st_ino
    rewrite_encoded(path, encode_document({"descr": "x" * ROOM}))
    assert path.stat().st_ino != inode and path.stat().st_size == 2 * ROOM
    assert read_document(path) == {"descr": "x" * ROOM}
    assert list(tmp_path.iterdir()) == [path]


def test_a_file_larger_than_a_page_is_never_rewritten_in_place(tmp_path):
    # Only a write within one page is whole or absent when the process is killed.
    path = tmp_path / "doc"
    rewrite_encoded(path, encode_document({"descr": "x" * PAGE}))
    inode = path.stat().st_ino
    rewrite_encoded(path, encode_document({"descr": "y" * PAGE}))
    assert path.stat().st_ino != inode
    assert read_document(path) == {"descr": "y" * PAGE}
