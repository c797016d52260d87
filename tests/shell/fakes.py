"""Stand-ins for the shell tests: a catalogue, control commands, shell commands, a session.

The catalogue is the shipped one plus a few entries it may not have yet (a
sender channel, the QMGR image attributes), added only where the shipped
catalogue has nothing of that name, so the tests keep working as it grows.
"""

from __future__ import annotations

import argparse
import tomllib
from dataclasses import dataclass
from importlib import resources

EXTRA_CATALOGUE = """
[attributes.CONNAME]
type = "string"
length = 264
description = "Connection name"

[attributes.XMITQ]
type = "string"
length = 48

[attributes.IMGRCOVO]
type = "keyword"
values = ["NO", "YES"]

[attributes.IMGRCOVQ]
type = "keyword"
values = ["NO", "YES"]

[attributes.IMGSCHED]
type = "keyword"
values = ["MANUAL", "AUTO"]

[objects.CHANNEL.variants.SDR]
attributes = ["CHANNEL", "CHLTYPE", "ALTDATE", "ALTTIME", "CONNAME", "DESCR", "TRPTYPE", "XMITQ"]
defaults = { CHLTYPE = "SDR", CONNAME = "", DESCR = "", TRPTYPE = "TCP", XMITQ = "" }
"""

QMGR_EXTRA_ATTRIBUTES = ["IMGRCOVO", "IMGRCOVQ", "IMGSCHED"]


def _merge_missing(base: dict, extra: dict) -> None:
    for key, value in extra.items():
        if key not in base:
            base[key] = value
        elif isinstance(base[key], dict) and isinstance(value, dict):
            _merge_missing(base[key], value)


def catalogue_data() -> dict:
    data = tomllib.loads(resources.files("mqsh.language").joinpath("catalogue.toml").read_text())
    _merge_missing(data, tomllib.loads(EXTRA_CATALOGUE))
    qmgr = data["objects"]["QMGR"]
    qmgr["attributes"] = list(dict.fromkeys([*qmgr["attributes"], *QMGR_EXTRA_ATTRIBUTES]))
    return data


def control_parsers() -> dict[str, argparse.ArgumentParser]:
    """Control commands shaped like mqsh's (crtmqm [-lc|-ll] [-lf pages] [-q] QM ...)."""
    crtmqm = argparse.ArgumentParser(prog="crtmqm", description="Create a queue manager")
    logging = crtmqm.add_mutually_exclusive_group()
    logging.add_argument("-lc", action="store_true", help="circular logging")
    logging.add_argument("-ll", action="store_true", help="linear logging")
    crtmqm.add_argument("-lf", metavar="pages", type=int, help="log file pages")
    crtmqm.add_argument("-q", action="store_true", help="make it the default queue manager")
    crtmqm.add_argument("qmgr", metavar="QM")
    strmqm = argparse.ArgumentParser(prog="strmqm", description="Start a queue manager")
    strmqm.add_argument("-ns", action="store_true")
    strmqm.add_argument("qmgr", metavar="QM")
    dspmq = argparse.ArgumentParser(prog="dspmq", description="Display queue managers")
    dspmq.add_argument("-m", dest="qmgr", metavar="QM")
    rcrmqobj = argparse.ArgumentParser(prog="rcrmqobj", description="Recreate objects")
    rcrmqobj.add_argument("-m", dest="qmgr", metavar="QM")
    rcrmqobj.add_argument("-t", dest="object_type", choices=["all", "qlocal", "channel"])
    rcrmqobj.add_argument("name")
    return {"crtmqm": crtmqm, "strmqm": strmqm, "dspmq": dspmq, "rcrmqobj": rcrmqobj}


@dataclass(frozen=True)
class ShellCommandEntry:
    name: str
    aliases: tuple[str, ...]
    usage: str
    description: str


SHELL_COMMANDS = (
    ShellCommandEntry("help", ("\\?",), "help", "List the shell commands"),
    ShellCommandEntry("\\format", (), "\\format mqsc|table|json", "Choose the output format"),
    ShellCommandEntry("\\q", (), "\\q", "Leave mqsh"),
)


class FakeSession:
    """What completion asks of a session: object and queue manager names."""

    def __init__(self, objects: dict[str, list[str]] | None = None, qmgrs: list[str] | None = None):
        self.objects = objects or {}
        self.qmgrs = qmgrs or []

    def object_names(self, target: str) -> list[str]:
        return self.objects.get(target, [])

    def qmgr_names(self) -> list[str]:
        return self.qmgrs


# Commands long enough to pass through every place a word can stand.
LONG_COMMANDS = [
    "DEFINE CHANNEL('TO.QM2') CHLTYPE(SDR) CONNAME('host(1414)') XMITQ(QM2) DESCR('it''s a sender') REPLACE",
    "DISPLAY QLOCAL(SYSTEM.*) WHERE(CURDEPTH GT 10) MAXDEPTH DESCR ALL",
    "ALTER QMGR IMGRCOVO(YES) IMGRCOVQ(NO) IMGSCHED(AUTO) DEADQ(SYSTEM.DEAD.LETTER.QUEUE) DESCR( ) ;",
    "SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT,GET,BROWSE,INQ)",
    "crtmqm -ll -lf 4096 -q QM1",
    "\\format table",
    "LAB CLOCK ADVANCE(30D)",
    "LAB PUT QUEUE(Q1) COUNT(10) PERSISTENT SYNCPOINT",
    "* a comment\nDEFINE QLOCAL(Q1) +\n  MAXDEPTH(5) -\nDESCR('split -\nvalue')",
]
