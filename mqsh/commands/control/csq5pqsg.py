"""csq5pqsg: z/OS's queue-sharing group utility (CSQ5PQSG) as a control command.

    csq5pqsg ADD QSG,QSGA            csq5pqsg ADD QSG QSGA
    csq5pqsg ADD QMGR,QM1,QSGA       csq5pqsg REMOVE QMGR QM1 QSGA
    csq5pqsg REMOVE QSG,QSGA         csq5pqsg VERIFY QSG,QSGA

The utility's PARM, with commas or blanks; the Db2 data-sharing group and
subsystem names that z/OS's form carries last are taken and kept (ADD QSG)
or passed over. Its report is the utility's SYSPRINT: IBM documents no texts
for the CSQU5nn messages CSQ5PQSG prints, so they are written here in CSQUTIL's style, one message id per kind of line.
Return codes are a z/OS utility's: 0 done, 4 VERIFY found inconsistencies,
8 the function failed.
"""

from __future__ import annotations

import argparse
import re

from mqsh.commands.context import Context
from mqsh.commands.control.parsing import ControlParser, control_parser, lines
from mqsh.model import sharing_groups as groups
from mqsh.model.qsg.repository import RepositoryUnavailable
from mqsh.responses import Result

DONE, WARNING, FAILED = 0, 4, 8
# function -> the names it takes before the optional Db2 names
FUNCTIONS = {
    ("ADD", "QSG"): ("qsg",),
    ("ADD", "QMGR"): ("qmgr", "qsg"),
    ("REMOVE", "QMGR"): ("qmgr", "qsg"),
    ("REMOVE", "QSG"): ("qsg",),
    ("VERIFY", "QSG"): ("qsg",),
}
USAGE = (
    "ADD QSG,qsg-name | ADD QMGR,qmgr-name,qsg-name | REMOVE QMGR,qmgr-name,qsg-name | "
    "REMOVE QSG,qsg-name | VERIFY QSG,qsg-name  (then optionally ,dsg-name,DB2-ssid)"
)


def parsers() -> dict[str, ControlParser]:
    csq5pqsg = control_parser(
        "csq5pqsg", "Add, remove and verify queue sharing groups and their queue managers (z/OS CSQ5PQSG)."
    )
    csq5pqsg.add_argument("parm", nargs="+", help=USAGE)
    return {"csq5pqsg": csq5pqsg}


def _report(function: str, body: list[str], code: int) -> Result:
    return lines(
        f"CSQU501I {function} function requested",
        *body,
        f"CSQU502I {function} function completed, return code={code}",
        ok=code == DONE,
        code=code,
    )


def csq5pqsg(ctx: Context, args: argparse.Namespace, _run) -> Result:
    words = [word for word in re.split(r"[,\s]+", " ".join(args.parm)) if word]
    key = tuple(word.upper() for word in words[:2])
    function = " ".join(key) if len(key) == 2 else " ".join(words).upper()
    wanted = FUNCTIONS.get(key)
    if wanted is None or not len(wanted) <= len(words) - 2 <= len(wanted) + 2:
        return _report(
            function,
            [f"CSQU503E PARM is not valid: {' '.join(words) or '(none)'}. It is one of: {USAGE}"],
            FAILED,
        )
    names = dict(zip(wanted, words[2:]))
    db2 = words[2 + len(wanted) :] + ["", ""]
    installation = ctx.installation
    try:
        if key == ("ADD", "QSG"):
            groups.add_group(installation, names["qsg"], db2[0], db2[1])
            return _report(
                function,
                [
                    f"CSQU504I Queue sharing group {names['qsg']} added; its structures "
                    "CSQ_ADMIN and CSQSYSAPPL are defined"
                ],
                DONE,
            )
        if key == ("ADD", "QMGR"):
            member = groups.add_member(installation, names["qmgr"], names["qsg"])
            return _report(
                function,
                [
                    f"CSQU504I Queue manager {member.qmgr} added to queue sharing group "
                    f"{names['qsg']} as member number {member.number}"
                ],
                DONE,
            )
        if key == ("REMOVE", "QMGR"):
            groups.remove_member(installation, names["qmgr"], names["qsg"])
            return _report(
                function,
                [f"CSQU504I Queue manager {names['qmgr']} removed from queue sharing group {names['qsg']}"],
                DONE,
            )
        if key == ("REMOVE", "QSG"):
            groups.remove_group(installation, names["qsg"])
            return _report(function, [f"CSQU504I Queue sharing group {names['qsg']} removed"], DONE)
        return _verify(function, installation, names["qsg"])
    except groups.GroupRefused as error:
        return _report(function, [f"CSQU505E {error}"], FAILED)
    except RepositoryUnavailable as error:
        return _report(
            function,
            [
                f"CSQU506E Db2 not available (MQRC {error.reason}, MQRC_DB2_NOT_AVAILABLE): "
                f"{str(error)[0].upper()}{str(error)[1:]}"
            ],
            FAILED,
        )


def _verify(function: str, installation, qsg: str) -> Result:
    verified = groups.verify_group(installation, qsg)
    listed = ", ".join(f"{member.qmgr}({member.number})" for member in verified.members) or "none"
    body = [f"CSQU507I Queue sharing group {qsg}: {len(verified.members)} member(s): {listed}"]
    body += [f"CSQU508E {problem}" for problem in verified.problems]
    body.append(
        f"CSQU509I {len(verified.problems)} inconsistencies found"
        if verified.problems
        else "CSQU509I No inconsistencies found"
    )
    return _report(function, body, WARNING if verified.problems else DONE)


HANDLERS = {"csq5pqsg": csq5pqsg}
