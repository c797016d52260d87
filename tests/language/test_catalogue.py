"""The attribute catalogue: its own consistency, and its agreement with real MQSC.

The corpus checks read ../shared/corpus (real MQSC scripts and runmqsc output)
in place, beside the repository; they are skipped when that folder is absent.
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from mqsh.language.catalogue import (
    AttributeSpec,
    Catalogue,
    ObjectSpec,
    VariantSpec,
    load,
)
from mqsh.language.lines import split_commands
from mqsh.language.parser import parse
from mqsh.language.validate import Command, MqscSyntaxError, parse_command

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
SCRIPTS = SHARED / "corpus" / "mqsc"
TRANSCRIPTS = SHARED / "corpus" / "transcripts"
COLLECTED = TRANSCRIPTS / "collected-transcripts.txt"

needs_shared = pytest.mark.skipif(
    not SCRIPTS.is_dir(), reason="../shared/corpus is not beside the repository"
)

SHELL_WORDS = {"END", "EXIT", "QUIT"}


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load()


@pytest.fixture(scope="module")
def raw() -> dict[str, Any]:
    """The data file as written (readonly lists are not kept by the loader)."""
    return tomllib.loads(resources.files("mqsh.language").joinpath("catalogue.toml").read_text())


def ok(text: str) -> Command:
    return parse_command(text, load())


def rejected(text: str) -> MqscSyntaxError:
    with pytest.raises(MqscSyntaxError) as error:
        parse_command(text, load())
    return error.value


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


# -------------------------------------------------------------- known values


def test_qmgr_defaults(catalogue):
    defaults = catalogue.objects["QMGR"].variant().defaults
    assert defaults["IMGRCOVO"] == "YES" and defaults["IMGRCOVQ"] == "YES"
    assert defaults["IMGSCHED"] == "MANUAL" and defaults["IMGINTVL"] == 60 and defaults["IMGLOGLN"] == "OFF"
    assert defaults["LOGGEREV"] == "DISABLED"
    assert defaults["REPOS"] == "" and defaults["REPOSNL"] == "" and defaults["DEADQ"] == ""
    assert defaults["CHLAUTH"] == "ENABLED"
    assert defaults["CONNAUTH"] == "SYSTEM.DEFAULT.AUTHINFO.IDPWOS"
    assert defaults["MAXMSGL"] == 4194304 and defaults["CCSID"] == 1208
    qmgr = catalogue.objects["QMGR"]
    assert qmgr.variant().attributes[0] == "QMNAME" and "SYNCPT" in qmgr.variant().attributes


def test_qlocal_defaults(catalogue):
    defaults = catalogue.objects["QLOCAL"].variant().defaults
    assert defaults["IMGRCOVQ"] == "QMGR"
    assert defaults["MAXDEPTH"] == 5000 and defaults["DEFPSIST"] == "NO" and defaults["SHARE"] is True
    assert defaults["HARDENBO"] is True and defaults["TRIGGER"] is False and defaults["USAGE"] == "NORMAL"
    assert catalogue.objects["QMODEL"].variant().defaults["DEFTYPE"] == "TEMPDYN"
    assert catalogue.attribute("DEFTYPE", catalogue.objects["QMODEL"]).values == (
        "PERMDYN",
        "TEMPDYN",
        "SHAREDYN",
    )


@pytest.mark.parametrize(
    "obj, kind, msgid, text",
    [
        ("QMGR", "changed", "AMQ8005I", "IBM MQ queue manager changed."),
        ("QMGR", "display", "AMQ8408I", "Display Queue Manager details."),
        ("QLOCAL", "created", "AMQ8006I", "IBM MQ queue created."),
        ("QLOCAL", "deleted", "AMQ8007I", "IBM MQ queue deleted."),
        ("QLOCAL", "changed", "AMQ8008I", "IBM MQ queue changed."),
        ("QLOCAL", "notfound", "AMQ8147E", "IBM MQ object {name} not found."),
        ("QLOCAL", "exists", "AMQ8150E", "IBM MQ object already exists."),
        ("QUEUE", "display", "AMQ8409I", "Display Queue details."),
        ("CHANNEL", "created", "AMQ8014I", "IBM MQ channel created."),
        ("CHANNEL", "deleted", "AMQ8015I", "IBM MQ channel deleted."),
        ("CHANNEL", "changed", "AMQ8016I", "IBM MQ channel changed."),
        ("CHANNEL", "display", "AMQ8414I", "Display Channel details."),
        ("CHANNEL", "started", "AMQ8018I", "Start IBM MQ channel accepted."),
        ("CHANNEL", "startnotfound", "AMQ8227E", "Channel {name} not found."),
        ("CHSTATUS", "display", "AMQ8417I", "Display Channel Status details."),
        ("CHSTATUS", "notfound", "AMQ8420I", "Channel Status not found."),
        ("NAMELIST", "display", "AMQ8550I", "Display namelist details."),
        ("NAMELIST", "changed", "AMQ8551I", "IBM MQ namelist changed."),
        ("LISTENER", "created", "AMQ8626I", "IBM MQ listener created."),
        ("LISTENER", "started", "AMQ8021I", "Request to start IBM MQ listener accepted."),
        ("LISTENER", "display", "AMQ8630I", "Display listener information details."),
        ("LSSTATUS", "display", "AMQ8631I", "Display listener status details."),
        ("TOPIC", "created", "AMQ8690I", "IBM MQ topic created."),
        ("TOPIC", "changed", "AMQ8691I", "IBM MQ topic changed."),
        ("AUTHREC", "set", "AMQ8862I", "IBM MQ authority record set."),
        ("AUTHREC", "display", "AMQ8864I", "Display authority record details."),
        ("CHLAUTH", "set", "AMQ8877I", "IBM MQ channel authentication record set."),
        ("CHLAUTH", "display", "AMQ8878I", "Display channel authentication record details."),
        ("SECURITY", "refreshed", "AMQ8560I", "IBM MQ security cache refreshed."),
        ("AUTHINFO", "changed", "AMQ8567I", "IBM MQ authentication information changed."),
        ("QSTATUS", "display", "AMQ8450I", "Display queue status details."),
        ("QMSTATUS", "display", "AMQ8705I", "Display Queue Manager Status Details."),
        ("CLUSQMGR", "display", "AMQ8441I", "Display Cluster Queue Manager details."),
        ("SUB", "display", "AMQ8096I", "IBM MQ subscription inquired."),
    ],
)
def test_messages_seen_in_real_output(catalogue, obj, kind, msgid, text):
    message = catalogue.objects[obj].message(kind)
    assert (message.id, message.text) == (msgid, text)


def test_every_message_id_is_shaped_like_mqs(catalogue):
    for obj in catalogue.objects.values():
        for kind, message in obj.messages.items():
            assert re.fullmatch(r"AMQ\d{4}[IWES]", message.id), (obj.name, kind)
            assert message.text.endswith("."), (obj.name, kind)


def test_lab_controls(catalogue):
    lab = catalogue.verbs["LAB"]
    assert set(lab.targets) == {
        "USE",
        "PUT",
        "GET",
        "BROWSE",
        "COMMIT",
        "BACKOUT",
        "LOAD",
        "CLOCK",
        "CRASH",
        "DAMAGE",
        "OPEN",
        "CLOSE",
        "ERRLOG",
        "EVENTS",
        "BACKUP",
        "RESTORE",
        "FAIL",
        "DENY",
        "ALLOW",
        "COPY",
        "SIZE",
        "FORMAT",
        "MEMLIMIT",
        "SITE",
        "NETWORK",
        "AUDIT",
        "EXPLAIN",
        "TIMELINE",
        "MAP",
    }
    for target in lab.targets:
        obj = catalogue.objects[target]
        assert obj.kind == "lab" and not obj.takes_name and obj.description
        for name in obj.all_attributes():
            assert catalogue.attribute(name, obj).description, (target, name)
    put = catalogue.objects["PUT"]
    assert catalogue.attribute("COUNT", put).min == 1 and catalogue.attribute("COUNT", put).max == 10000000
    assert put.variant().defaults["COUNT"] == 1 and put.variant().defaults["SIZE"] == 100
    assert catalogue.positive_of("NONPERSISTENT") == "PERSISTENT"
    assert catalogue.positive_of("NOSYNCPOINT") == "SYNCPOINT"
    assert catalogue.attribute("PRIORITY", put).max == 9
    # QMGR, QUEUE, PUT, GET and SET are object types too: the namespaces do not mix.
    assert catalogue.attribute("QMGR").type == "string" and catalogue.object("QMGR").name == "QMGR"
    assert catalogue.attribute("SET", catalogue.objects["CLOCK"]).type == "string"
    assert catalogue.attribute("SET", catalogue.objects["QSTATUS"]).type == "keyword"


# --------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "text",
    [
        "LAB USE QMGR(QM2)",
        "LAB PUT QUEUE(Q1) COUNT(100) SIZE(2048) PERSISTENT SYNCPOINT PRIORITY(5)",
        "LAB PUT QUEUE(Q1) NONPERSISTENT",
        "LAB GET QUEUE(Q1) COUNT(5) NOSYNCPOINT",
        "LAB COMMIT",
        "LAB BACKOUT",
        "LAB CLOCK ADVANCE(30D)",
        "LAB CLOCK SET('2025-01-01 00:00:00')",
        "LAB CRASH",
        "LAB CRASH QMGR(QM1)",
        "REFRESH SECURITY",
        "REFRESH SECURITY(*) TYPE(SSL)",
        "REF SECURITY TYPE(AUTHSERV)",
        "RESET QMGR TYPE(ADVANCELOG)",
        "RESET QMGR TYPE(REDUCELOG) REDUCE(MAX)",
        "RESET QMGR TYPE(ARCHLOG) ARCHIVED(S0000012.LOG)",
        "REFRESH QMGR TYPE(EXPIRY)",
        "SET LOG ARCHIVED(S0000003.LOG)",
        "PING QMGR",
        "PING CHANNEL(TO.QM2) DATALEN(64)",
        "RESET CHANNEL(TO.QM2) SEQNUM(1)",
        "RESOLVE CHANNEL(TO.QM2) ACTION(BACKOUT)",
        "STOP CHANNEL(TO.QM2) MODE(FORCE) STATUS(INACTIVE)",
        "START CHANNEL(TO.QM2)",
        "STA LISTENER(L1) IGNSTATE(YES)",
        "STOP SERVICE(S1)",
        "START SERVICE(S1)",
        "REFRESH CLUSTER(*) REPOS(YES)",
        "RESET CLUSTER(C1) ACTION(FORCEREMOVE) QMNAME(QM9) QUEUES(YES)",
        "SUSPEND QMGR CLUSTER(C1) MODE(FORCE)",
        "RESUME QMGR CLUSTER(C1)",
        "DELETE AUTHREC PROFILE(Q1) OBJTYPE(QUEUE) PRINCIPAL('app')",
        "DISPLAY AUTHREC PROFILE(Q1) OBJTYPE(QUEUE) MATCH(EXACT)",
        "DIS CHLAUTH(*) ALL",
        "DISPLAY CHSTATUS(*) ALL",
        "DIS CHS(TO.*) SAVED",
        "DISPLAY QSTATUS(Q1) TYPE(HANDLE) ALL",
        "DIS QS(*) WHERE(CURDEPTH GT 0)",
        "DISPLAY QMSTATUS ALL",
        "DISPLAY QMSTATUS LOG",
        "DIS QMSTATUS CURRLOG MEDIALOG RECLOG",
        "DISPLAY LSSTATUS(*) ALL",
        "DISPLAY SVSTATUS(*)",
        "DISPLAY SUB(*) ALL",
        "DISPLAY SBSTATUS(*)",
        "DISPLAY TPSTATUS('#') TYPE(SUB)",
        "DISPLAY QMGR IMGRCOVO IMGRCOVQ IMGSCHED",
        "DIS Q(*) TYPE(QLOCAL) MAXDEPTH",
        "DISPLAY QUEUE(QA.A) TARGET",
        "DIS CLUSQMGR(*) CLUSTER(C1) QMTYPE STATUS",
        "ALTER QMGR IMGSCHED(AUTO) IMGINTVL(OFF) IMGLOGLN(3271) IMGRCOVO(NO) IMGRCOVQ(NO) LOGGEREV(ENABLED)",
        "ALTER QMGR MAXPROPL(NOLIMIT) MONQ(NONE)",
        "ALTER QLOCAL(Q1) IMGRCOVQ(QMGR) MONQ(QMGR) FORCE",
        "DEFINE QLOCAL(Q1) MAXFSIZE(DEFAULT) STREAMQ(Q2) STRMQOS(MUSTDUP) CAPEXPRY(100) NOHARDENBO",
        "DEFINE QMODEL(M1) DEFTYPE(SHAREDYN)",
        "DEFINE QREMOTE(R1) RNAME(Q1) RQMNAME(QM2) XMITQ(QM2)",
        "DEFINE QLOCAL(Q1) LIKE(Q2) NOREPLACE",
        "DELETE QLOCAL(Q1) NOPURGE",
        "CLEAR QLOCAL(Q1)",
        "DEFINE CHANNEL(C1) CHLTYPE(MQTT) PORT(1883) PROTOCOL(MQTTV311,HTTP) SSLCAUTH(NEVER)",
        "DEFINE CHANNEL(C1) CHLTYPE(SVRCONN) KAINT(AUTO) MONCHL(HIGH) COMPMSG(ZLIBFAST,RLE)",
        "DELETE CHANNEL(C1) CHLTYPE(MQTT)",
        "DISPLAY CHANNEL(*) CHLTYPE(SDR) ALL",
        "DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1414) IPADDR('10.0.0.1') BACKLOG(100) CONTROL(STARTONLY)",
        "DEFINE NAMELIST(N1) NAMES(A,B,C)",
        "DEFINE PROCESS(P1) APPLTYPE(UNIX) APPLICID('/bin/true')",
        "DEFINE SUB(S1) TOPICSTR('a/b') DEST(Q1) DESTQMGR(QM2) EXPIRY(UNLIMITED) PUBPRTY(ASQDEF)",
        "DEFINE AUTHINFO(A1) AUTHTYPE(OCSP) OCSPURL('http://ocsp')",
        "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('9.*','10.*')",
        "SET CHLAUTH(C1) TYPE(QMGRMAP) QMNAME(QM2) USERSRC(MAP) MCAUSER(u1) ACTION(REPLACE)",
        "BACKUP CFSTRUCT(APP1) EXCLINT(60)",
        "RECOVER CFSTRUCT(APP1) TYPE(PURGE)",
        "REC CFSTRUCT(APP1)",
        "DEFINE CFSTRUCT(APP1) CFLEVEL(5) OFFLOAD(SMDS) DSBLOCK(1M) DSEXPAND(YES) RECOVER(YES)",
        "RESET CFSTRUCT(APP1) ACTION(FAIL)",
        "DISPLAY CFSTATUS(APP1) TYPE(SMDS)",
        "RESET SMDS(QM01) CFSTRUCT(APP1) STATUS(RECOVERED)",
        "START SMDSCONN(*) CFSTRUCT(APP1)",
        "DISPLAY SMDSCONN(*) CFSTRUCT(APP1)",
        "ALTER SMDS(QM01) CFSTRUCT(APP1) DSBUFS(DEFAULT)",
        "DISPLAY QLOCAL(Q1) CMDSCOPE(*)",
        "DISPLAY ENTAUTH PRINCIPAL('app') OBJNAME(Q1) OBJTYPE(QUEUE)",
        "DIS ENTAUTH GROUP('mqm') OBJNAME('QM1') OBJTYPE(QMGR) SERVCOMP('MQSeries.UNIX.auth.service') ALL",
        "DISPLAY ENTAUTH PRINCIPAL('app') OBJNAME(C1) OBJTYPE(CHANNEL) AUTHLIST",
        "DISPLAY PUBSUB",
        "DISPLAY PUBSUB TYPE(ALL) ALL",
        "DIS PUBSUB TYPE(LOCAL) STATUS SUBCOUNT TPCOUNT",
        "DISPLAY APSTATUS(*)",
        "DISPLAY APSTATUS(MYAPP) TYPE(LOCAL) ALL",
        "DIS APSTATUS(*) TYPE(QMGR) BALSTATE",
        "DISPLAY APSTATUS(*) TYPE(APPL) WHERE(BALANCED EQ NO)",
        "DISPLAY AUTHSERV",
        "DISPLAY AUTHSERV ALL",
        "DIS AUTHSERV IFVER UIDSUPP",
        "DISPLAY TCLUSTER(*)",
        "DIS TCLUSTER(T*) ALL",
        "DISPLAY TCLUSTER(*) WHERE(CLUSTER EQ C1) CLUSQMGR",
        "CLEAR TOPICSTR('a/b') CLRTYPE(RETAINED)",
        "CLEAR TOPICSTR('a/b') CLRTYPE(RETAINED) SCOPE(LOCAL)",
        "START CHINIT",
        "START CHINIT INITQ(SYSTEM.CHANNEL.INITQ)",
        "PURGE CHANNEL(MQTT.CHL)",
        "PURGE CHANNEL(MQTT.CHL) CLIENTID('c1')",
        "PURGE CHANNEL(MQTT.CHL) CHLTYPE(MQTT) CLIENTID('c1')",
        "DEFINE CHANNEL(C1) CHLTYPE(SDR) CONNAME('h(1414)') XMITQ(XQ) SPLPROT(ASPOLICY)",
        "ALTER CHANNEL(C1) CHLTYPE(RCVR) SPLPROT(REMOVE)",
        "DEFINE TOPIC(T1) TOPICSTR('a') TYPE(LOCAL)",
        "ALTER TOPIC(T1) TYPE(LOCAL)",
        "DELETE QLOCAL(Q1) AUTHREC(NO)",
        "DELETE QALIAS(A1) AUTHREC(YES)",
        "DELETE QMODEL(M1) AUTHREC(NO)",
        "DELETE QREMOTE(R1) AUTHREC(NO)",
        "DELETE TOPIC(T1) AUTHREC(NO)",
    ],
)
def test_accepted(text):
    ok(text)


@pytest.mark.parametrize(
    "text, stop",
    [
        ("LAB PUT COUNT(5)", "LAB PUT COUNT(5)"),  # QUEUE is required
        ("LAB PUT QUEUE(Q1) COUNT(0)", "COUNT(0)"),  # below 1
        ("LAB PUT QUEUE(Q1) PRIORITY(10)", "PRIORITY(10)"),
        ("LAB USE", "LAB USE"),
        ("LAB USE(QM1)", "USE(QM1)"),  # lab controls take no name
        ("DEFINE CHANNEL(C1) TRPTYPE(TCP)", "TRPTYPE(TCP)"),  # CHLTYPE is required
        ("DEFINE CHANNEL(C1) CHLTYPE(SDR) SHARECNV(10)", "SHARECNV"),  # a SVRCONN attribute
        ("SET AUTHREC PROFILE(Q1) PRINCIPAL('app') AUTHADD(PUT)", "AUTHADD(PUT)"),  # OBJTYPE is required
        ("SET CHLAUTH(C1) USERSRC(MAP)", "USERSRC(MAP)"),  # TYPE is required
        ("RESET QMGR TYPE(EXPIRY)", "TYPE(EXPIRY)"),  # a REFRESH QMGR type
        ("REFRESH QMGR TYPE(ADVANCELOG)", "TYPE(ADVANCELOG)"),
        ("RESOLVE CHANNEL(C1)", "RESOLVE CHANNEL(C1)"),  # ACTION is required
        ("SUSPEND QMGR CLUSTER(C1) MODE(TERMINATE)", "MODE(TERMINATE)"),
        ("ALTER QMGR IMGRCOVQ(QMGR)", "IMGRCOVQ(QMGR)"),  # QMGR value is for queues only
        ("ALTER QMGR MONQ(QMGR)", "MONQ(QMGR)"),
        ("ALTER QLOCAL(Q1) MONQ(NONE)", "MONQ(NONE)"),
        ("ALTER QMGR CURDEPTH(1)", "CURDEPTH"),
        ("ALTER QLOCAL(Q1) CURDEPTH(1)", "CURDEPTH"),  # read-only
        ("DEFINE QLOCAL(Q1) DEFTYPE(PERMDYN)", "DEFTYPE"),  # read-only on local queues
        ("DEFINE QMODEL(M1) DEFTYPE(PREDEFINED)", "DEFTYPE(PREDEFINED)"),
        ("DEFINE TOPIC(T1) DESCR('no string')", "DESCR('no string')"),  # TOPICSTR is required
        ("ALTER QMGR IMGINTVL(NEVER)", "IMGINTVL(NEVER)"),
        ("DISPLAY QMSTATUS(QM1)", "QMSTATUS(QM1)"),
        ("START QMGR", "START QMGR"),
        ("END QMGR", "END"),
        ("DISPLAY ENTAUTH PRINCIPAL('app') OBJTYPE(QUEUE)", "OBJTYPE(QUEUE)"),  # OBJNAME is required
        ("DISPLAY ENTAUTH PRINCIPAL('app') OBJNAME(Q1) OBJTYPE(FILE)", "OBJTYPE(FILE)"),
        ("DISPLAY ENTAUTH(Q1) OBJNAME(Q1) OBJTYPE(QUEUE)", "ENTAUTH(Q1)"),  # no name
        ("DISPLAY PUBSUB TYPE(REMOTE)", "TYPE(REMOTE)"),
        ("DISPLAY APSTATUS(*) TYPE(CHANNEL)", "TYPE(CHANNEL)"),
        ("CLEAR TOPICSTR('a/b')", "CLEAR TOPICSTR('a/b')"),  # CLRTYPE is required
        ("CLEAR TOPICSTR('a/b') CLRTYPE(ALL)", "CLRTYPE(ALL)"),
        ("CLEAR TOPICSTR('a/b') CLRTYPE(RETAINED) SCOPE(QMGR)", "SCOPE(QMGR)"),
        ("PURGE CHANNEL(C1) CHLTYPE(SDR)", "CHLTYPE(SDR)"),
        ("DEFINE CHANNEL(C1) CHLTYPE(SDR) SPLPROT(ALWAYS)", "SPLPROT(ALWAYS)"),
        ("DEFINE TOPIC(T1) TOPICSTR('a') TYPE(CLUSTER)", "TYPE(CLUSTER)"),
        ("DELETE QLOCAL(Q1) AUTHREC(MAYBE)", "AUTHREC(MAYBE)"),
        ("DELETE CHANNEL(C1) AUTHREC(NO)", "AUTHREC"),
        ("DISPLAY CLUSQMGR(*) WHERE(MCANAME EQ ' ')", "WHERE(MCANAME EQ ' ')"),  # not a filter keyword
        ("DISPLAY CLUSQMGR(*) WHERE(CMDSCOPE EQ QM1)", "WHERE(CMDSCOPE EQ QM1)"),
        # IBM's DISPLAY pages name the keywords each may not filter on
        ("DISPLAY QSTATUS(*) WHERE(TYPE EQ QUEUE)", "WHERE(TYPE EQ QUEUE)"),
        ("DIS QS(*) WHERE(QTIME GT 0)", "WHERE(QTIME GT 0)"),
        ("DIS QS(*) TYPE(HANDLE) WHERE(URID EQ X)", "WHERE(URID EQ X)"),
        ("DIS CHS(*) WHERE(XQTIME GT 0)", "WHERE(XQTIME GT 0)"),
        ("DIS CHS(*) WHERE(CURRENT EQ YES)", "WHERE(CURRENT EQ YES)"),
        ("DIS CONN(*) WHERE(EXTCONN EQ X)", "WHERE(EXTCONN EQ X)"),
        ("DIS CONN(*) WHERE(QSGDISP EQ QMGR)", "WHERE(QSGDISP EQ QMGR)"),
        ("DIS QL(*) WHERE(QDPHIEV EQ ENABLED)", "WHERE(QDPHIEV EQ ENABLED)"),  # a family member takes QUEUE's
        ("DIS Q(*) WHERE(QSVCIEV EQ NONE)", "WHERE(QSVCIEV EQ NONE)"),
        ("DIS CFSTATUS(*) WHERE(TYPE EQ SUMMARY)", "WHERE(TYPE EQ SUMMARY)"),
    ],
)
def test_rejected(text, stop):
    error = rejected(text)
    assert error.segment.endswith(stop), error.segment


def test_targq_is_another_spelling_of_target():
    command = ok("DEFINE QALIAS(QA.A) TARGQ(QL.A) DEFPSIST(NO)")
    assert command.params["TARGET"] == "QL.A" and "TARGQ" not in command.params
    assert ok("DIS QA(QA.A) TARGQ").selectors == ["TARGET"]
    rejected("DEFINE QALIAS(QA.A) TARGQ(QL.A) TARGET(QL.B)")


def test_flags_and_negatives_land_on_the_positive_name():
    command = ok("DEFINE QLOCAL(Q1) NOSHARE NOTRIGGER HARDENBO REPLACE")
    assert command.params == {"SHARE": False, "TRIGGER": False, "HARDENBO": True, "REPLACE": True}


def test_optional_names():
    assert ok("REFRESH SECURITY").name is None
    assert ok("REFRESH SECURITY(*) TYPE(CONNAUTH)").name == "*"
    assert ok("DELETE SUB SUBID(414D5120514D3120202020202020202066B7A56520000D06)").name is None
    rejected("DEFINE QLOCAL")


# ------------------------------------------------------- real runmqsc output


def _items(line: str) -> list[tuple[str, str | None]]:
    """KEY(value) and bare KEY items of one DISPLAY line (values may nest parentheses)."""
    items, index = [], 0
    while index < len(line):
        if line[index] == " ":
            index += 1
            continue
        match = re.match(r"[A-Z][A-Z0-9]*", line[index:])
        if not match:
            break
        name = match.group(0)
        index += len(name)
        value = None
        if index < len(line) and line[index] == "(":
            depth, end = 0, index
            while end < len(line):
                depth += {"(": 1, ")": -1}.get(line[end], 0)
                if depth == 0:
                    break
                end += 1
            value, index = line[index + 1 : end], end + 1
        items.append((name, value))
    return items


def display_blocks(text: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """(message id, items) for every AMQnnnn header followed by indented attribute lines."""
    blocks: list[tuple[str, list[tuple[str, str | None]]]] = []
    current: list[tuple[str, str | None]] | None = None
    for line in text.splitlines():
        header = re.match(r"^(AMQ\d{4})[A-Z]?: ", line)
        if header:
            current = []
            blocks.append((header.group(1), current))
        elif current is not None and line.startswith("   ") and line.strip():
            if not line.startswith("        ,"):  # continuation of a list value (NAMES)
                current.extend(_items(line[3:]))
        else:
            current = None
    return [(msgid, items) for msgid, items in blocks if items]


def _display_objects(catalogue: Catalogue) -> dict[str, list[ObjectSpec]]:
    table: dict[str, list[ObjectSpec]] = {}
    for obj in catalogue.objects.values():
        message = obj.message("display")
        if message is not None:
            table.setdefault(message.id[:7], []).append(obj)
    return table


def _shown_order(
    catalogue: Catalogue, obj: ObjectSpec, items
) -> tuple[ObjectSpec, tuple[str, ...], list[str]]:
    values = dict(items)
    if obj.kind == "family" and values.get("TYPE") in catalogue.objects:
        obj = catalogue.objects[values["TYPE"]]
    if obj.discriminator and values.get(obj.discriminator) in obj.variants:
        order = obj.variants[values[obj.discriminator]].attributes
    else:
        order = tuple(obj.all_attributes())
    names = [catalogue.positive_of(name) or name for name, _ in items]
    return obj, order, names


def _is_subsequence(names: list[str], order: tuple[str, ...]) -> bool:
    position = iter(order)
    return all(name in position for name in names)


def _transcript_files() -> list[Path]:
    return sorted(TRANSCRIPTS.glob("*.txt")) if TRANSCRIPTS.is_dir() else []


@needs_shared
@pytest.mark.parametrize("path", _transcript_files(), ids=lambda path: path.name[:60])
def test_displays_in_real_output_match_the_catalogue(catalogue, path):
    """Every attribute runmqsc showed is known, and in the catalogue's DISPLAY order."""
    table = _display_objects(catalogue)
    checked = 0
    for msgid, items in display_blocks(path.read_text(encoding="utf-8", errors="replace")):
        candidates = table.get(msgid, [])
        names = {name for name, _ in items}
        candidates = [obj for obj in candidates if obj.name_attribute in names or not obj.takes_name]
        if not candidates:
            continue
        obj, order, shown = _shown_order(catalogue, candidates[0], items)
        unknown = [name for name in shown if name not in order]
        assert not unknown, f"{msgid} {obj.name}: {unknown}"
        assert _is_subsequence(shown, order), f"{msgid} {obj.name}: {shown} not in order {order}"
        checked += 1
    if not checked:
        pytest.skip("no DISPLAY output in this transcript")


ECHO = re.compile(r"^ *(\d*) : ?(.*)$")


def echoed_commands(text: str) -> list[tuple[str, list[str]]]:
    """(command text as runmqsc read it, the response lines that followed) from echo lines."""
    found: list[tuple[list[str], list[str]]] = []
    lines: list[str] | None = None
    for line in text.splitlines():
        echo = ECHO.match(line)
        if echo and echo.group(1):
            lines = [echo.group(2)]
            found.append((lines, []))
        elif echo and lines is not None and not found[-1][1]:
            lines.append(echo.group(2))
        elif lines is not None:
            found[-1][1].append(line)
            if len(found[-1][1]) == 2:
                lines = None
    commands = []
    for lines, response in found:
        for chunk in split_commands("\n".join(lines)):
            if chunk.is_command:
                commands.append((chunk.text, response))
    return commands


@needs_shared
@pytest.mark.parametrize("path", _transcript_files(), ids=lambda path: path.name[:60])
def test_commands_runmqsc_echoed_are_judged_as_runmqsc_judged_them(catalogue, path):
    """Commands in real output validate, unless runmqsc answered AMQ8405I; then the
    quoted segment is the same."""
    checked = 0
    for command, response in echoed_commands(path.read_text(encoding="utf-8", errors="replace")):
        if command.strip().upper() in SHELL_WORDS:
            continue
        checked += 1
        if response and re.match(r"AMQ8405I?:", response[0]):
            with pytest.raises(MqscSyntaxError) as error:
                parse_command(command, catalogue)
            assert error.value.segment == response[1]
        else:
            parse_command(command, catalogue)
    if not checked:
        pytest.skip("no echoed commands in this transcript")


def _transcript(number: int) -> str:
    text = COLLECTED.read_text(encoding="utf-8")
    start = text.index(f"TRANSCRIPT {number}\n")
    end = text.find("\nTRANSCRIPT ", start + 1)
    return text[start : end if end > 0 else len(text)]


@needs_shared
def test_display_qmgr_all_order_is_t1(catalogue):
    (_msgid, items), *_ = [block for block in display_blocks(_transcript(1)) if block[0] == "AMQ8408"]
    assert list(catalogue.objects["QMGR"].variant().attributes) == [name for name, _ in items]


@needs_shared
def test_display_qmstatus_all_keeps_t1_order(catalogue):
    (_msgid, items), *_ = [block for block in display_blocks(_transcript(1)) if block[0] == "AMQ8705"]
    order = catalogue.objects["QMSTATUS"].variant().attributes
    shown = [name for name, _ in items]
    assert _is_subsequence(shown, order)
    added = [name for name in order if name not in shown]
    assert added == ["ARCHLOG", "ARCHSZ", "CURRLOG", "MEDIALOG", "MEDIASZ", "QMFSENC", "RECLOG", "RECSZ"]


@needs_shared
def test_display_qmstatus_on_a_circular_log_shows_what_t1_shows(session):
    (_msgid, items), *_ = [block for block in display_blocks(_transcript(1)) if block[0] == "AMQ8705"]
    record = session.execute("DISPLAY QMSTATUS").responses[0]  # ALL, as no attribute is asked for
    shown = dict(record.attributes)
    assert list(shown) == [name for name, _ in items]
    fixed = ("TYPE", "STATUS", "AUTOCLUS", "DATFSSZ", "DATFSUSE", "GRPROLE", "LDAPCONN", "LOGTYPE", "STANDBY")
    assert {name: shown[name] for name in fixed} == {name: value for name, value in items if name in fixed}
    assert re.fullmatch(r"\d\d:\d\d:\d\d", shown["LOGSTRTI"]) and re.fullmatch(
        r"\d\d\.\d\d\.\d\d", shown["STARTTI"]
    )


@needs_shared
def test_display_qlocal_all_order_is_t4(catalogue):
    blocks = [items for msgid, items in display_blocks(_transcript(4)) if msgid == "AMQ8409"]
    full = max(blocks, key=len)
    shown = [catalogue.positive_of(name) or name for name, _ in full]
    order = catalogue.objects["QLOCAL"].variant().attributes
    assert [name for name in order if name in shown] == shown
    later = [name for name in order if name not in shown]
    assert later == ["CAPEXPRY", "CLCHNAME", "CUSTOM", "IMGRCOVQ", "MAXFSIZE", "STREAMQ", "STRMQOS"]
    defaults = catalogue.objects["QLOCAL"].variant().defaults
    for name, value in full:
        if name in ("QUEUE", "ALTDATE", "ALTTIME", "CRDATE", "CRTIME", "DESCR"):
            continue
        positive = catalogue.positive_of(name)
        if positive:
            assert defaults[positive] is False, name
        elif value is None:
            assert defaults[name] is True, name
        else:
            spec = catalogue.attribute(name, catalogue.objects["QLOCAL"])
            expected = int(value) if spec.type == "integer" and value.isdigit() else value.strip()
            assert defaults[name] == expected, name


# ------------------------------------------------------------ corpus scripts

# Scripts that carry template placeholders: they are not MQSC until a tool
# fills them in. Commands without placeholders are still checked.
TEMPLATES = {
    "IBMMQAutomation__dynamic-mqsc__dev__qm01__dynamic.mqsc": "$VAR",
    "IBMMQAutomation__dynamic-mqsc__uat__qm02__dynamic.mqsc": "$VAR",
    "TxMQ__ibm-mq-helm-chart__compose__mqexplorer-mqsc-template.sh.mqsc": "${...}",
    "ewiger__ibm-mq-mtls__create-client-ccdt.sh.mqsc": "${...}",
    "ibm-messaging__mq-container__incubating__mqadvanced-server-dev__10-dev.mqsc.tpl.mqsc": "{{ ... }}",
    "ibm-messaging__mq-uniform-clusters__demo__Docker__QMConfig__dockerVolume__UniCluster.mqsc": "+NAME+",
    "ibm-messaging__mq-uniform-clusters__demo__Linux__QMConfig__UniCluster.mqsc": "+NAME+",
    "ibm-messaging__mq-uniform-clusters__demo__Linux__showConns.sh__L44.mqsc": "$VAR",
    "ibm-messaging__mq-uniform-clusters__pubsub__simple-admin__QMConfig__UniCluster.mqsc": "+NAME+",
    "khongks__mq-pipeline__config__config.mqsc.tmpl.mqsc": "${...}",
}

PLACEHOLDERS = (
    ("{{ ... }}", re.compile(r"\{\{.*?\}\}")),
    ("${...}", re.compile(r"\$\{[^}]*\}")),
    ("<% ... %>", re.compile(r"<%.*?%>")),
    # $SYS is IBM MQ's own system topic prefix ('$SYS/MQ'), not a variable.
    ("$VAR", re.compile(r"\$(?!SYS\b)[A-Za-z_][A-Za-z0-9_]*")),
    # Inserts such as +QMNAME+ and +AUTOCL+ that the queue manager's automatic
    # configuration replaces; inside a service's command attributes they are
    # IBM MQ's own service inserts, filled in when the service starts.
    ("+NAME+", re.compile(r"\+[A-Z][A-Z_]*\+")),
)
SERVICE_TEXT = re.compile(
    r"\b(STARTCMD|STARTARG|STOPCMD|STOPARG|STDOUT|STDERR)\s*\((?:'[^']*'|[^()'])*\)", re.IGNORECASE
)

# Commands in the corpus that runmqsc itself would reject: (start of the
# command, where the quoted segment ends, why).
REJECTED = {
    "TxMQ__ibm-mq-helm-chart__mqstarters__ldapauth__openldap.mqsc": [
        (
            "DEFINE AUTHINFO(USE.LDAP)",
            "FAILEDDLAY",
            "FAILEDDLAY is not an AUTHINFO attribute (the failed-authentication delay is FAILDLAY)",
        ),
    ],
    "tsoyroma__321__mq__mq__linux__scripts__create_objects_lan.mqsc": [
        (
            "ALTER CHL CHLTYPE(SC.DEMO.LAN.DMZ)",
            "ALTER CHL",
            "the channel name is missing: CHL is written bare and the name was put in CHLTYPE",
        ),
    ],
}


def placeholders_in(command: str) -> list[str]:
    text = SERVICE_TEXT.sub("", command)
    return [label for label, pattern in PLACEHOLDERS if pattern.search(text)]


def unknown_keywords(catalogue: Catalogue, command: str) -> list[str]:
    """Keywords of a command that its verb and object type do not know (values unchecked)."""
    parsed = parse(command)
    verb = catalogue.verb(parsed.verb)
    obj = catalogue.object(parsed.items[0].keyword)
    known = set(verb.params_for(obj.name)) | set(obj.all_attributes()) | {obj.discriminator}
    words = [item.keyword for item in parsed.items[1:]] + ([parsed.where.keyword] if parsed.where else [])
    return [word for word in words if (catalogue.positive_of(word) or catalogue.canonical(word)) not in known]


def _scripts() -> list[Path]:
    return sorted(SCRIPTS.glob("*.mqsc")) if SCRIPTS.is_dir() else []


def _commands(path: Path) -> list[str]:
    chunks = split_commands(path.read_text(encoding="utf-8", errors="replace"))
    return [
        chunk.text for chunk in chunks if chunk.is_command and chunk.text.strip().upper() not in SHELL_WORDS
    ]


@needs_shared
def test_template_list_is_exactly_the_scripts_with_placeholders():
    found = {}
    for path in _scripts():
        labels = sorted({label for command in _commands(path) for label in placeholders_in(command)})
        if labels:
            found[path.name] = labels
    assert found == {name: [label] for name, label in TEMPLATES.items()}


@needs_shared
def test_rejected_commands_exist_in_the_corpus():
    for name, expectations in REJECTED.items():
        commands = _commands(SCRIPTS / name)
        for start, _, _ in expectations:
            assert any(command.startswith(start) for command in commands), (name, start)


@needs_shared
@pytest.mark.parametrize("path", _scripts(), ids=lambda path: path.name[:70])
def test_every_keyword_in_the_corpus_is_known(catalogue, path):
    """Every command parses and validates, except the ones runmqsc would reject too."""
    expected = REJECTED.get(path.name, [])
    templated = []
    for command in _commands(path):
        labels = placeholders_in(command)
        if labels:
            templated.append(f"{', '.join(labels)} in {command[:60]!r}")
            assert not unknown_keywords(catalogue, command), (command, unknown_keywords(catalogue, command))
            continue
        rejection = next((item for item in expected if command.startswith(item[0])), None)
        if rejection is not None:
            with pytest.raises(MqscSyntaxError) as error:
                parse_command(command, catalogue)
            assert error.value.segment.endswith(rejection[1]), (rejection[2], error.value.segment)
            continue
        try:
            parse_command(command, catalogue)
        except MqscSyntaxError as error:
            pytest.fail(f"{command!r} rejected at {error.segment[-40:]!r}: {error.reason}")
    if templated:
        more = f"; and {len(templated) - 3} more" if len(templated) > 3 else ""
        pytest.skip(
            f"template placeholders ({TEMPLATES.get(path.name)}), {len(templated)} command(s) not checked: "
            + "; ".join(templated[:3])
            + more
        )


@needs_shared
def test_attributes_commented_out_by_dmpmqcfg_are_known(catalogue):
    """dmpmqcfg writes read-only attributes as '*  NAME(value) +' lines inside each command."""
    dumps = [path for path in _scripts() if "dmpmqcfg" in path.read_text(encoding="utf-8", errors="replace")]
    assert dumps
    seen = 0
    for path in dumps:
        for chunk in split_commands(path.read_text(encoding="utf-8", errors="replace")):
            if not chunk.is_command:
                continue
            parsed = parse(chunk.text)
            obj = catalogue.object(parsed.items[0].keyword)
            values = {item.keyword: item.values for item in parsed.items}
            known: tuple[str, ...] | list[str] = obj.all_attributes()
            if obj.discriminator and values.get(obj.discriminator):
                known = obj.variants[values[obj.discriminator][0].text.upper()].attributes
            for line in chunk.lines:
                match = re.match(r"^\*\s+([A-Z][A-Z0-9]*)\(", line)
                if match:
                    seen += 1
                    assert match.group(1) in known, (path.name, obj.name, match.group(1))
    assert seen > 100


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
