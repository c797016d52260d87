"""The attribute catalogue's own consistency: its words, objects, attributes and their specs."""

from __future__ import annotations

from typing import Any

import pytest

from mqsh.language.catalogue import AttributeSpec, ObjectSpec, VariantSpec

# ------------------------------------------------------------------ structure


def test_loads_the_whole_vocabulary(catalogue):
    assert len(catalogue.verbs) >= 17
    assert len(catalogue.objects) >= 40
    assert len(catalogue.attributes) >= 500
    for verb in (
        "ALTER",
        "CLEAR",
        "DEFINE",
        "DELETE",
        "DISPLAY",
        "PING",
        "REFRESH",
        "RESET",
        "RESOLVE",
        "RESUME",
        "SET",
        "START",
        "STOP",
        "SUSPEND",
        "RECOVER",
        "BACKUP",
        "LAB",
    ):
        assert verb in catalogue.verbs
    for obj in (
        "QMGR",
        "QUEUE",
        "QLOCAL",
        "QMODEL",
        "QALIAS",
        "QREMOTE",
        "CHANNEL",
        "LISTENER",
        "SERVICE",
        "PROCESS",
        "NAMELIST",
        "TOPIC",
        "SUB",
        "AUTHINFO",
        "CHLAUTH",
        "AUTHREC",
        "SECURITY",
        "QSTATUS",
        "QMSTATUS",
        "CHSTATUS",
        "LSSTATUS",
        "SVSTATUS",
        "SBSTATUS",
        "TPSTATUS",
        "USE",
        "PUT",
        "GET",
        "COMMIT",
        "BACKOUT",
        "CLOCK",
        "CRASH",
    ):
        assert obj in catalogue.objects


@pytest.mark.parametrize(
    "word, verb",
    [
        ("ALTER", "ALTER"),
        ("ALT", "ALTER"),
        ("DEFINE", "DEFINE"),
        ("DEF", "DEFINE"),
        ("DISPLAY", "DISPLAY"),
        ("DIS", "DISPLAY"),
        ("REFRESH", "REFRESH"),
        ("REF", "REFRESH"),
        ("START", "START"),
        ("STA", "START"),
        ("RECOVER", "RECOVER"),
        ("REC", "RECOVER"),
        ("dis", "DISPLAY"),
        ("CLEAR", "CLEAR"),
        ("DELETE", "DELETE"),
        ("PING", "PING"),
        ("RESET", "RESET"),
        ("RESOLVE", "RESOLVE"),
        ("RESUME", "RESUME"),
        ("SET", "SET"),
        ("STOP", "STOP"),
        ("SUSPEND", "SUSPEND"),
        ("BACKUP", "BACKUP"),
    ],
)
def test_verb_words(catalogue, word, verb):
    assert catalogue.verb(word).name == verb


@pytest.mark.parametrize("word", ["END", "EXIT", "QUIT", "DEFI", "DISP", "ALTE"])
def test_words_that_are_not_verbs(catalogue, word):
    # END/EXIT/QUIT belong to the shell; synonyms are fixed words, not prefixes.
    assert catalogue.verb(word) is None


@pytest.mark.parametrize(
    "word, obj",
    [
        ("Q", "QUEUE"),
        ("QL", "QLOCAL"),
        ("QA", "QALIAS"),
        ("QR", "QREMOTE"),
        ("QM", "QMODEL"),
        ("QC", "QCLUSTER"),
        ("QS", "QSTATUS"),
        ("CHL", "CHANNEL"),
        ("CHS", "CHSTATUS"),
        ("NL", "NAMELIST"),
        ("PRO", "PROCESS"),
        ("LSTR", "LISTENER"),
        ("TPS", "TPSTATUS"),
        ("qmgr", "QMGR"),
    ],
)
def test_object_words(catalogue, word, obj):
    assert catalogue.object(word).name == obj


def test_every_synonym_resolves_to_its_owner(catalogue):
    for verb in catalogue.verbs.values():
        for word in (verb.name, *verb.synonyms):
            assert catalogue.verb(word) is verb
    for obj in catalogue.objects.values():
        for word in (obj.name, *obj.synonyms):
            assert catalogue.object(word) is obj
    words = [word for obj in catalogue.objects.values() for word in (obj.name, *obj.synonyms)]
    assert len(words) == len(set(words)), "an object word belongs to two object types"


def test_every_verb_target_is_an_object(catalogue):
    for verb in catalogue.verbs.values():
        assert verb.targets, verb.name
        for target in verb.targets:
            assert target in catalogue.objects, (verb.name, target)
        for table in (verb.extra, verb.required, verb.overrides):
            assert set(table) <= set(verb.targets), verb.name


def _variants(obj: ObjectSpec) -> dict[str, VariantSpec]:
    return {key or obj.name: variant for key, variant in obj.variants.items()}


def test_defaults_only_name_the_objects_own_attributes(catalogue):
    for obj in catalogue.objects.values():
        for key, variant in _variants(obj).items():
            stray = set(variant.defaults) - set(variant.attributes)
            assert not stray, f"{obj.name}/{key} defaults name {sorted(stray)}"


def test_readonly_and_summary_name_known_attributes(catalogue, raw):
    for name, data in raw["objects"].items():
        obj = catalogue.objects[name]
        known = set(obj.all_attributes())
        readonly = set(data.get("readonly", ()))
        for variant in data.get("variants", {}).values():
            stray = set(variant.get("readonly", ())) - set(
                variant.get("attributes", data.get("attributes", ()))
            )
            assert not stray, f"{name} variant readonly {sorted(stray)}"
        assert readonly <= known, f"{name} readonly {sorted(readonly - known)}"
        assert set(obj.summary) <= known, f"{name} summary {sorted(set(obj.summary) - known)}"
        if obj.discriminator:
            assert obj.discriminator in known, name


def test_every_name_used_is_defined(catalogue):
    for obj in catalogue.objects.values():
        if obj.name_attribute:
            assert catalogue.attribute(obj.name_attribute, obj) is not None, obj.name
        for name in obj.all_attributes():
            assert catalogue.attribute(name, obj) is not None, (obj.name, name)
        for name in obj.overrides:
            assert name in catalogue.attributes or name in obj.all_attributes(), (obj.name, name)
    for verb in catalogue.verbs.values():
        for target in verb.targets:
            obj = catalogue.objects[target]
            for name in (*verb.params_for(target), *verb.required_for(target)):
                assert catalogue.attribute(name, obj, verb) is not None, (verb.name, target, name)
            allowed = set(verb.params_for(target)) | set(obj.all_attributes())
            if obj.discriminator:
                allowed.add(obj.discriminator)
            assert set(verb.required_for(target)) <= allowed, (verb.name, target)


def _valid_default(spec: AttributeSpec, value: Any) -> bool:
    if spec.type == "flag":
        return isinstance(value, bool)
    if spec.list:
        return isinstance(value, list) and all(_valid_default(_single(spec), item) for item in value)
    if spec.type == "integer":
        if isinstance(value, str):
            return value in spec.values
        low = spec.min if spec.min is not None else value
        high = spec.max if spec.max is not None else value
        return isinstance(value, int) and low <= value <= high
    if spec.type == "keyword":
        return value in spec.values
    return isinstance(value, str) and (spec.length is None or len(value) <= spec.length)


def _single(spec: AttributeSpec) -> AttributeSpec:
    return AttributeSpec(spec.name, spec.type, spec.values, spec.min, spec.max, spec.length)


def test_every_default_is_a_valid_value(catalogue):
    for obj in catalogue.objects.values():
        for key, variant in _variants(obj).items():
            for name, value in variant.defaults.items():
                spec = catalogue.attribute(name, obj)
                assert _valid_default(spec, value), f"{obj.name}/{key} {name}={value!r}"


def test_attribute_specs_are_well_formed(catalogue):
    for spec in catalogue.attributes.values():
        assert spec.type in {"integer", "string", "keyword", "flag", "date", "time"}, spec.name
        if spec.type == "keyword":
            assert spec.values, spec.name
        if spec.negative:
            assert spec.type == "flag", spec.name
            assert catalogue.positive_of(spec.negative) == spec.name
        if spec.synonym_of:
            assert spec.synonym_of in catalogue.attributes
        if spec.min is not None and spec.max is not None:
            assert spec.min <= spec.max, spec.name


def test_flags_shown_as_bare_words(catalogue):
    for positive, negative in (
        ("SHARE", "NOSHARE"),
        ("HARDENBO", "NOHARDENBO"),
        ("TRIGGER", "NOTRIGGER"),
        ("REPLACE", "NOREPLACE"),
        ("PURGE", "NOPURGE"),
    ):
        assert catalogue.attributes[positive].type == "flag"
        assert catalogue.positive_of(negative) == positive
    assert catalogue.attributes["SYNCPT"].type == "flag"
    assert catalogue.objects["QMGR"].variant().defaults["SYNCPT"] is True
    assert "SYNCPT" not in catalogue.objects["QMGR"].variant().settable


@pytest.mark.parametrize(
    "name, word",
    [
        ("IMGINTVL", "OFF"),
        ("IMGLOGLN", "OFF"),
        ("MAXPROPL", "NOLIMIT"),
        ("KAINT", "AUTO"),
        ("MARKINT", "NOLIMIT"),
        ("CAPEXPRY", "NOLIMIT"),
        ("MAXFSIZE", "DEFAULT"),
        ("EXPIRY", "UNLIMITED"),
    ],
)
def test_integers_that_take_words(catalogue, name, word):
    spec = catalogue.attributes[name]
    assert spec.type == "integer" and word in spec.values


def test_channel_variants_cover_every_chltype(catalogue):
    channel = catalogue.objects["CHANNEL"]
    assert set(channel.variants) == set(catalogue.attributes["CHLTYPE"].values)
    for chltype, variant in channel.variants.items():
        assert variant.defaults["CHLTYPE"] == chltype
        assert variant.attributes[:2] == ("CHANNEL", "CHLTYPE")
    assert "XMITQ" in channel.variant("SDR").settable
    assert "XMITQ" not in channel.variant("RCVR").attributes
    assert "SHARECNV" in channel.variant("SVRCONN").settable
    assert channel.variant("MQTT").defaults["PORT"] == 1883
    assert set(catalogue.objects["AUTHINFO"].variants) == {"IDPWOS", "IDPWLDAP", "CRLLDAP", "OCSP"}
    assert set(catalogue.objects["CHLAUTH"].variants) == {
        "BLOCKUSER",
        "BLOCKADDR",
        "SSLPEERMAP",
        "ADDRESSMAP",
        "USERMAP",
        "QMGRMAP",
    }


def test_queue_family_knows_every_queue_attribute(catalogue):
    queue = catalogue.objects["QUEUE"]
    assert set(queue.variants) == {"QLOCAL", "QMODEL", "QALIAS", "QREMOTE", "QCLUSTER"}
    for name in ("MAXDEPTH", "TARGET", "RNAME", "DEFTYPE", "CLUSQMGR"):
        assert name in queue.all_attributes()


def test_object_specific_readings(catalogue):
    qmgr, qlocal = catalogue.objects["QMGR"], catalogue.objects["QLOCAL"]
    assert catalogue.attribute("MONQ", qmgr).values == ("OFF", "NONE", "LOW", "MEDIUM", "HIGH")
    assert catalogue.attribute("MONQ", qlocal).values == ("QMGR", "OFF", "LOW", "MEDIUM", "HIGH")
    assert catalogue.attribute("IMGRCOVQ", qmgr).values == ("YES", "NO")
    assert catalogue.attribute("IMGRCOVQ", qlocal).values == ("YES", "NO", "QMGR")
    assert catalogue.attribute("CHLAUTH", qmgr).type == "keyword"
    assert catalogue.attribute("CHLAUTH", catalogue.objects["CHLAUTH"]).type == "string"
    assert catalogue.attribute("SUB", catalogue.objects["TOPIC"]).type == "keyword"
    assert catalogue.attribute("SUB", catalogue.objects["SUB"]).type == "string"
    types = {
        name: catalogue.attribute("TYPE", catalogue.objects[name]).values
        for name in ("QUEUE", "QSTATUS", "QMSTATUS", "CHLAUTH", "SECURITY", "TPSTATUS", "CONN")
    }
    assert "QLOCAL" in types["QUEUE"] and types["QSTATUS"] == ("QUEUE", "HANDLE")
    assert "QMGR" in types["QMSTATUS"] and "ADDRESSMAP" in types["CHLAUTH"]
    assert {"CONNAUTH", "SSL", "AUTHSERV", "CLASSES"} <= set(types["SECURITY"])
    reset, refresh = catalogue.verbs["RESET"], catalogue.verbs["REFRESH"]
    assert "ADVANCELOG" in catalogue.attribute("TYPE", qmgr, reset).values
    assert "EXPIRY" in catalogue.attribute("TYPE", qmgr, refresh).values


def test_attribute_groups_name_the_objects_own_attributes(catalogue):
    grouped = [obj for obj in catalogue.objects.values() if obj.groups]
    assert [obj.name for obj in grouped] == ["QMGR"]
    qmgr = catalogue.objects["QMGR"]
    assert set(qmgr.groups) == {"SYSTEM", "EVENT", "CHINIT", "CLUSTER", "PUBSUB"}
    members = {name for group in qmgr.groups.values() for name in group.members}
    assert members <= set(qmgr.all_attributes())
    # Every attribute but the name, which is always shown, is in some group.
    assert set(qmgr.all_attributes()) - members == {"QMNAME"}
    assert all(group.flag.type == "flag" for group in qmgr.groups.values())
