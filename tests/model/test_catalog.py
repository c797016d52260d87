"""The catalog's objects, findable by name space as they change (no scan of every object)."""

from __future__ import annotations

from mqsh.model.catalog import Objects
from mqsh.model.objects import MQObject


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
    assert [record.attributes["PROFILE"] for record in qmgr.objects("AUTHREC")
            if record.attributes["ENTITY"] == "app"] == ["APP.*"]
    session.execute("LAB CRASH")
    assert session.execute("strmqm QM1").ok
    restarted = session.installation.held["QM1"]
    assert isinstance(restarted.state, Objects)
    assert any(record.attributes["ENTITY"] == "app" for record in restarted.objects("AUTHREC"))
    assert all(found.namespace == "AUTHREC" for found in restarted.objects("AUTHREC"))
