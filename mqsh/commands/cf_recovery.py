"""BACKUP CFSTRUCT and RECOVER CFSTRUCT, answered in z/OS's form.

A generic name or ``*`` backs up every matching recoverable structure
(CSQ_ADMIN is never one). The console messages z/OS issues for a backup
(CSQE120I started, CSQE121I completed) go into the reply and the error log.
NOT FOUND: their exact texts; mqsh words them in the style of the CSQE
messages that are known (CSQE101I, CSQE102E).
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.commands.display import is_generic, name_matches
from mqsh.commands.group import run_on_repository
from mqsh.commands.zos import Reply
from mqsh.language.validate import Command
from mqsh.model.qsg.cf_backup import BackupRefused, backup_structure
from mqsh.model.qsg.repository import SharedRepository
from mqsh.model.qsg.structures import ADMIN
from mqsh.responses import Result

BACKUP_CSECT = "CSQELBK1"


def _rba(lsn: int) -> str:
    return f"{lsn:012X}"


def backup(ctx: Context, command: Command) -> Result:
    reply = Reply(ctx.qmgr.name, BACKUP_CSECT, "BACKUP CFSTRUCT")

    def work(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
        pattern = command.name or "*"
        if is_generic(pattern):
            names = [name for name, attributes in repository.cfstructs().items()
                     if name != ADMIN and name_matches(pattern, name) and attributes.get("RECOVER") == "YES"]
        else:
            names = [pattern]
        ok = True
        for name in names:
            try:
                done = backup_structure(ctx.qmgr.shared, name)
            except BackupRefused as refused:
                reply.say(refused.msgid, str(refused))
                ctx.qmgr.errors.write(refused.msgid, f"{BACKUP_CSECT} {refused}")
                ok = False
                continue
            started = f"Backup of structure {name} started at RBA={_rba(done.start_lsn)}"
            ended = (f"Backup of structure {name} completed at RBA={_rba(done.end_lsn)}, "
                     f"size {done.size / (1024 * 1024):.0f} MB, {done.entries} messages")
            for msgid, text in (("CSQE120I", started), ("CSQE121I", ended)):
                reply.say(msgid, text)
                ctx.qmgr.errors.write(msgid, f"{BACKUP_CSECT} {text}")
        if not names:
            reply.say("CSQM297I", "NO CFSTRUCT FOUND MATCHING REQUEST CRITERIA")
        return reply.done(ok)

    return run_on_repository(ctx, command, reply, work)
