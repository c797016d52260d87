"""Stand-ins for the shell tests: a session, a control command with choices, sample commands."""

from __future__ import annotations

import argparse


def recreate_parser() -> argparse.ArgumentParser:
    """A control command whose option has a fixed set of values, like rcrmqobj -t."""
    rcrmqobj = argparse.ArgumentParser(prog="rcrmqobj", description="Recreate objects", add_help=False)
    rcrmqobj.add_argument("-m", dest="qmgr")
    rcrmqobj.add_argument("-t", dest="object_type", choices=["all", "qlocal", "channel"])
    rcrmqobj.add_argument("name")
    return rcrmqobj


class FakeSession:
    """What completion asks of a session: object and queue manager names."""

    def __init__(self, objects: dict[str, list[str]] | None = None, qmgrs: list[str] | None = None):
        self.objects = objects or {}
        self.qmgrs = qmgrs or []

    def object_names(self, target: str, qmgr_name: str | None = None) -> list[str]:
        """Names by target; a named queue manager's by "QM2/QLOCAL"."""
        return self.objects.get(f"{qmgr_name}/{target}" if qmgr_name else target, [])

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
