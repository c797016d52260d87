"""Putter notes: one note per process's first put, the putter of any put record read back from them."""

from __future__ import annotations

from mqsh.store import putnotes
from mqsh.store.putnotes import PutterNotes, Putters


def test_a_process_notes_its_first_put_once_and_not_again_for_the_same_putter(tmp_path):
    PutterNotes(tmp_path, "ann").before_put(5)
    writer = PutterNotes(tmp_path, "ann")
    writer.before_put(9)  # the same putter as the last note: nothing more to say
    writer.before_put(12)
    PutterNotes(tmp_path, "bob").before_put(20)
    assert putnotes.notes_path(tmp_path).read_text() == "5 ann mqsh\n20 bob mqsh\n"


def test_a_put_records_putter_is_its_own_fields_else_the_note_in_force_else_not_recorded(tmp_path):
    putnotes.notes_path(tmp_path).write_text("5 ann mqsh\n20 bob mqsh\n21 torn")
    putters = putnotes.read(tmp_path)
    assert putters.of(4, None, None) is None  # put before the first note: not recorded
    assert putters.of(5, None, None) == ("ann", "mqsh")
    assert putters.of(19, None, "QM1") == ("ann", "QM1")  # a message the queue manager put
    assert putters.of(25, None, None) == ("bob", "mqsh")
    assert putters.of(25, "carl", None) == ("carl", "mqsh")
    assert Putters([]).of(3, None, None) is None
    assert putnotes.read(tmp_path / "none").of(3, None, None) is None
