"""The message data store: durable rows by message id, orphans swept, damage reported."""

from __future__ import annotations

import pytest

from mqsh.store.message_data import MessageData, MessageDataUnavailable


def test_rows_survive_reopening_and_go_when_deleted(tmp_path):
    store = MessageData(tmp_path / "msgdata.db")
    store.put({"A": {"qm": "QM2", "q": "Q1"}, "B": {"batch": [1, 2]}})
    store.close()
    again = MessageData(tmp_path / "msgdata.db")
    assert again.get("A") == {"qm": "QM2", "q": "Q1"} and again.get("B") == {"batch": [1, 2]}
    again.delete(["A"])
    assert again.get("A") is None and again.get("missing") is None


def test_keep_only_removes_the_rows_of_messages_on_no_queue(tmp_path):
    store = MessageData(tmp_path / "msgdata.db")
    store.put({"A": {}, "B": {}, "C": {}})
    store.keep_only({"B"})
    assert [store.get(key) for key in "ABC"] == [None, {}, None]


def test_nothing_is_made_for_a_queue_manager_that_never_stored_data(tmp_path):
    store = MessageData(tmp_path / "msgdata.db")
    store.keep_only(set())
    store.delete(["A"])
    assert not (tmp_path / "msgdata.db").exists()


def test_a_damaged_file_is_reported_not_replaced(tmp_path):
    path = tmp_path / "msgdata.db"
    path.write_bytes(b"not a database at all" * 100)
    with pytest.raises(MessageDataUnavailable):
        MessageData(path).get("A")
    assert path.read_bytes().startswith(b"not a database")
