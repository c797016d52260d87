"""The catalogue's values against MQ's: defaults, messages real runmqsc gives, and the lab controls."""

from __future__ import annotations

import re

import pytest

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
