"""BACKUP CFSTRUCT and RECOVER CFSTRUCT, answered in z/OS's form.

A generic name or ``*`` backs up every matching recoverable structure
(CSQ_ADMIN is never one). The console messages z/OS issues for a backup
(CSQE120I started, CSQE121I completed) go into the reply and the error log.
IBM documents no texts for them, nor for CSQE131I (recovery complete) and
CSQE135I (its progress); mqsh words them in the style of the CSQE messages
that are known (CSQE101I, CSQE102E, CSQE158E with CSQJ077E).
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.commands.display import is_generic, name_matches
from mqsh.commands.qsg.group import run_on_repository
from mqsh.commands.zos import Reply
from mqsh.core.progress import status_line
from mqsh.language.validate import Command
from mqsh.model.qsg.cfstruct_definitions import ADMIN
from mqsh.model.qsg.repository import SharedRepository
from mqsh.model.qsg.structure_backup import DEFAULT_EXCLINT, BackupRefused, backup_structure, megabytes, rba
from mqsh.model.qsg.structure_recovery import Recovered, RecoveryRefused, recover_structure
from mqsh.recovery.cfstruct.rebuild import CfRecoveryEngine
from mqsh.recovery.spark.session import ReplayCancelled, SparkUnavailable
from mqsh.responses import Result

BACKUP_CSECT = "CSQELBK1"


def backup(ctx: Context, command: Command) -> Result:
    reply = Reply(ctx.qmgr.name, BACKUP_CSECT, command.typed)

    def work(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
        pattern = command.name or "*"
        if is_generic(pattern):
            names = [
                name
                for name, attributes in repository.cfstructs().items()
                if name != ADMIN and name_matches(pattern, name) and attributes.get("RECOVER") == "YES"
            ]
        else:
            names = [pattern]
        ok = True
        for name in names:
            try:
                done = backup_structure(
                    ctx.qmgr.shared, name, int(command.params.get("EXCLINT", DEFAULT_EXCLINT))
                )
            except BackupRefused as refused:
                reply.say(refused.msgid, str(refused))
                ctx.qmgr.errors.write(refused.msgid, f"{BACKUP_CSECT} {refused}")
                ok = False
                continue
            started = f"Backup of structure {name} started at RBA={rba(done.start_lsn)}"
            ended = (
                f"Backup of structure {name} completed at RBA={rba(done.end_lsn)}, "
                f"size {megabytes(done.size)} MB, {done.entries} messages"
            )
            for msgid, text in (("CSQE120I", started), ("CSQE121I", ended)):
                reply.say(msgid, text)
                ctx.qmgr.errors.write(msgid, f"{BACKUP_CSECT} {text}")
        if not names:
            reply.say("CSQM297I", "NO CFSTRUCT FOUND MATCHING REQUEST CRITERIA")
        return reply.done(ok)

    return run_on_repository(ctx, command, reply, work)


RECOVER_CSECT = "CSQERCFS"


def recover(ctx: Context, command: Command) -> Result:
    reply = Reply(ctx.qmgr.name, RECOVER_CSECT, command.typed)
    purge = command.params.get("TYPE") == "PURGE"

    def work(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
        names = command.names or [command.name or ""]
        engine = CfRecoveryEngine(ctx.qmgr.engine.choice, ctx.qmgr.engine.master)
        ok = True
        for name in names:
            try:
                with status_line(f"recovering structure {name}"):
                    done = recover_structure(ctx.qmgr.shared, name, purge, engine)
            except RecoveryRefused as refused:
                for msgid, text in refused.details:
                    reply.say(msgid, text, csect="CSQJR005")
                    ctx.qmgr.errors.write(msgid, text)
                reply.say(refused.msgid, str(refused))
                ctx.qmgr.errors.write(refused.msgid, f"{RECOVER_CSECT} {refused}")
                ok = False
                continue
            except (SparkUnavailable, ReplayCancelled) as error:
                reply.say("CSQE158E", f"Recovery of structure {name} failed: {error}")
                ok = False
                continue
            said = [("CSQE135I", _purged(done) if done.purged else _recovered(done))]
            # A data set the recovery could not write (its device still fails, or its maximum extents
            # cannot hold the recovered messages: CSQE239I first, as at a put) stays FAILED, and the
            # recovery is not complete. IBM documents no message here: CSQE244I, as for any data set
            # found failed, with the reason.
            for owner, why in done.unwritten:
                if owner in done.unexpanded:
                    said.append(("CSQE239I", done.unexpanded[owner]))
                said.append(("CSQE244I", f"SMDS({owner}) CFSTRUCT({name}) status is now FAILED: {why}"))
            if done.unwritten:
                ok = False
            else:
                said.append(("CSQE131I", f"Structure {name} recovery is complete"))
            for msgid, line in said:
                reply.say(msgid, line)
                ctx.qmgr.errors.write(msgid, f"{RECOVER_CSECT} {line}")
            # Then the members this process holds hear of it (the others at their next command):
            # owners of recovered data sets rebuild their space maps and make them ACTIVE.
            for held in ctx.installation.held.values():
                held.shared.tick()
        return reply.done(ok)

    return run_on_repository(ctx, command, reply, work)


def _purged(done: Recovered) -> str:
    """What a purge discarded (the terms are Recovered's)."""
    discarded = (
        f"{done.discarded} messages purged"
        if done.discarded is not None
        else "the messages it held when it was lost purged"
    )
    return (
        f"Structure {done.cf} recovered empty (TYPE(PURGE)): {discarded}, {done.dropped} non-persistent "
        "dropped; its data sets are EMPTY"
    )


def _recovered(done: Recovered) -> str:
    """Where the messages a recovery left came from, as a sum (the terms are Recovered's)."""
    text = (
        f"Recovery of structure {done.cf} read {done.restored} backed-up messages and {done.applied} log "
        f"records ({done.engine} engine): {done.entries} messages recovered = {done.restored} from the backup "
        f"- {done.gone} got or backed out since + {done.put} put since and still there, replayed from the logs of "
        f"{', '.join(done.members)}; {done.dropped} non-persistent dropped"
    )
    if done.started_at is not None:
        purge = done.started_at
        discarded = (
            f"its {purge.purged} messages" if purge.purged is not None else "the messages it discarded"
        )
        text += f"; started from the purge of {purge.at}, {discarded} not restored"
    if done.data_sets:
        text += f"; data sets of {', '.join(done.data_sets)} rewritten"
    return text
