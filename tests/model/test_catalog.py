"""The catalog's objects, findable by name space as they change (no scan of every object), and their
object files, written behind the commands that change them."""

from __future__ import annotations

import threading

from mqsh.core.objects import MQObject
from mqsh.model import catalog as catalog_module
from mqsh.model.catalog import Objects
from mqsh.store.files import read_document


def obj(namespace: str, name: str, object_type: str | None = None) -> MQObject:
    return MQObject(object_type or namespace, name, {}, namespace)


def test_every_way_an_object_comes_and_goes_keeps_the_name_spaces_right():
    objects = Objects({"QUEUE/A": obj("QUEUE", "A", "QLOCAL")})
    objects["AUTHREC/R1"] = obj("AUTHREC", "R1")
    objects.setdefault("AUTHREC/R2", obj("AUTHREC", "R2"))
    objects.update({"CHANNEL/C": obj("CHANNEL", "C")})
    assert sorted(objects.keys_in("AUTHREC")) == ["AUTHREC/R1", "AUTHREC/R2"]
    del objects["AUTHREC/R1"]
    assert objects.pop("AUTHREC/R2").name == "R2" and objects.pop("AUTHREC/R9", None) is None
    assert objects.keys_in("AUTHREC") == [] and objects.keys_in("QUEUE") == ["QUEUE/A"]
    objects["QUEUE/A"] = obj("QUEUE", "A", "QALIAS")  # replaced: still one queue
    assert objects.keys_in("QUEUE") == ["QUEUE/A"]
    objects.clear()
    assert objects.keys_in("CHANNEL") == [] and objects == {}


def test_a_start_hands_a_plain_dict_that_the_catalog_indexes(session):
    qmgr = session.installation.held["QM1"]
    session.execute("SET AUTHREC PROFILE('APP.*') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT)")
    assert isinstance(qmgr.state, Objects)
    assert [
        record.attributes["PROFILE"]
        for record in qmgr.objects("AUTHREC")
        if record.attributes["ENTITY"] == "app"
    ] == ["APP.*"]
    session.execute("LAB CRASH")
    assert session.execute("strmqm QM1").ok
    restarted = session.installation.held["QM1"]
    assert isinstance(restarted.state, Objects)
    assert any(record.attributes["ENTITY"] == "app" for record in restarted.objects("AUTHREC"))
    assert all(found.namespace == "AUTHREC" for found in restarted.objects("AUTHREC"))


# ---------------------------------------------------------------- object files written behind the command
class HeldWrites:
    """Object file writes held back until let go: what a file system slow to make files does."""

    def __init__(self, monkeypatch):
        self.gate = threading.Event()
        real = catalog_module.rewrite_encoded

        def held(path, data, probably_new=False):
            self.gate.wait(10)
            real(path, data, probably_new)

        monkeypatch.setattr(catalog_module, "rewrite_encoded", held)


def test_a_new_object_answers_before_its_file_is_written_and_is_not_taken_for_damaged(session, monkeypatch):
    qmgr = session.installation.held["QM1"]
    held = HeldWrites(monkeypatch)
    assert session.execute("DEFINE QLOCAL(BEHIND.Q) DESCR('logged first')").ok
    path = qmgr.paths.object_file("QUEUE", "BEHIND.Q")
    assert not path.exists() and qmgr.catalog.deferred.pending("QUEUE/BEHIND.Q")
    shown = session.render(session.execute("DISPLAY QLOCAL(BEHIND.Q) DESCR"))
    assert "DESCR(logged first)" in shown and "AMQ8149S" not in shown
    held.gate.set()
    qmgr.settle_files()
    assert read_document(path)["attributes"]["DESCR"] == "logged first"
    assert not qmgr.check(qmgr.lookup("QUEUE", "BEHIND.Q"))


def test_writes_behind_keep_their_order_define_delete_define(session, monkeypatch):
    qmgr = session.installation.held["QM1"]
    held = HeldWrites(monkeypatch)
    for command in (
        "DEFINE QLOCAL(GONE.Q)",
        "DELETE QLOCAL(GONE.Q)",
        "DEFINE QLOCAL(AGAIN.Q) DESCR('first')",
        "DELETE QLOCAL(AGAIN.Q)",
        "DEFINE QLOCAL(AGAIN.Q) DESCR('second')",
    ):
        assert session.execute(command).ok, command
    held.gate.set()
    qmgr.settle_files()
    assert not qmgr.paths.object_file("QUEUE", "GONE.Q").exists()
    assert read_document(qmgr.paths.object_file("QUEUE", "AGAIN.Q"))["attributes"]["DESCR"] == "second"


def test_a_lab_command_and_a_checkpoint_find_the_files_written(session):
    qmgr = session.installation.held["QM1"]
    assert session.execute("DEFINE QLOCAL(NEW.Q)").ok
    assert session.render(session.execute("LAB DAMAGE QUEUE(NEW.Q) HOW(DELETE)")).startswith(
        "File of QUEUE(NEW.Q)"
    )
    assert "AMQ8149S" in session.render(session.execute("DISPLAY QLOCAL(NEW.Q)"))
    assert session.execute("DEFINE QLOCAL(LATER.Q)").ok
    qmgr.checkpoint()
    assert not qmgr.catalog.deferred.pending("QUEUE/LATER.Q")
    assert qmgr.paths.object_file("QUEUE", "LATER.Q").exists()


def test_files_a_kill_kept_from_being_written_come_back_from_the_log_at_restart(session, monkeypatch):
    monkeypatch.setattr(catalog_module, "rewrite_encoded", lambda path, data, probably_new=False: None)
    assert session.execute("DEFINE QLOCAL(NEVER.WRITTEN) DESCR('only in the log')").ok
    session.execute("LAB CRASH")
    monkeypatch.undo()
    paths = session.installation.paths("QM1")
    assert not paths.object_file("QUEUE", "NEVER.WRITTEN").exists()
    assert session.execute("strmqm QM1").ok
    shown = session.render(session.execute("DISPLAY QLOCAL(NEVER.WRITTEN) DESCR"))
    assert "DESCR(only in the log)" in shown
    assert session.execute("endmqm QM1").ok
    assert (
        read_document(paths.object_file("QUEUE", "NEVER.WRITTEN"))["attributes"]["DESCR"] == "only in the log"
    )


def test_a_settle_looks_at_an_object_file_once_and_the_next_command_looks_again(session):
    qmgr = session.installation.held["QM1"]
    assert session.execute("DEFINE QLOCAL(STILL.Q)").ok
    qmgr.settle_files()
    path = qmgr.paths.object_file("QUEUE", "STILL.Q")
    with qmgr.catalog.files_still():
        assert not qmgr.check(qmgr.lookup("QUEUE", "STILL.Q"))
        path.unlink()  # only a command damages a file; here it shows that the settle does not look again
        assert not qmgr.check(qmgr.lookup("QUEUE", "STILL.Q"))
    assert qmgr.check(qmgr.lookup("QUEUE", "STILL.Q"))
