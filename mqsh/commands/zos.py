"""z/OS's reply to a command: CSQN205I, a message per object or event, CSQ9022I or CSQ9023E.

The queue-sharing-group commands exist on z/OS only, so they answer as z/OS
answers through its command server (the form CSQUTIL's COMMAND function
prints): a first message counting the messages of the reply, itself
included, with the return and reason codes; then one message per object or
event; then the completion message naming the command. Each carries the
command prefix (CPF) and the csect that issued it.

IBM documents none of these, so they are chosen in the same style: the
CPF a queue manager has (an installation's choice on z/OS; mqsh uses '-' and
the queue manager's name, as IBM's examples write -CSQ1); the return code of a
command that failed for its content (00000008); the csect names of the
CFSTRUCT commands (CSQMACFS, and CSQMDRTS as for other displays).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mqsh.responses import Display, Message, Response, Result

FAILED_RETURN = "00000008"
DISPLAY_CSECT = "CSQMDRTS"  # the csect of z/OS's DISPLAY commands
COMMAND_CSECT = "CSQMMSGP"  # the csect of its other MQSC commands (IBM's example shows it on DEFINE QLOCAL)
# The reason code of a reply that only says the command went to other queue managers (CSQN137I,
# CSQN138I): their own replies follow.
SENT_ON_REASON = "00000004"


def cpf(qmgr: str) -> str:
    return f"-{qmgr}"


def count_line(count: int, ok: bool = True, reason: str = "00000000") -> Message:
    """CSQN205I: how many messages the reply has, itself included, and its return and reason codes."""
    return Message(
        f"  COUNT={count:>8}, RETURN={'00000000' if ok else FAILED_RETURN}, REASON={reason}",
        "CSQN205I",
        zos=True,
    )


@dataclass
class Reply:
    """The messages of one reply, gathered as the command runs."""

    qmgr: str
    csect: str
    command: str  # verb and object as typed, as the title and completion message name them: "DIS CFSTRUCT"
    messages: list[Response] = field(default_factory=list)

    def say(self, msgid: str, text: str, csect: str | None = None, inserts: list[str] | None = None) -> None:
        self.messages.append(
            Message(f"{cpf(self.qmgr)} {csect or self.csect} {text}", msgid, inserts or [], zos=True)
        )

    def details(self, title: str, attributes: list, end: str, csect: str | None = None) -> None:
        """CSQM201I: one object, a keyword a line."""
        self.messages.append(
            Display(
                "CSQM201I",
                f"{cpf(self.qmgr)} {csect or self.csect}  {title} DETAILS",
                attributes,
                end=f"END {end} DETAILS",
            )
        )

    def displayed(self, keyword: str, records: list[Display], generic: bool) -> Result:
        """A display's reply: for a generic name how many it found (CSQM293I / CSQM297I), then a
        CSQM201I message for each record."""
        if generic:
            if records:
                self.say("CSQM293I", f"{len(records)} {keyword} FOUND MATCHING REQUEST CRITERIA")
            else:
                self.say("CSQM297I", f"NO {keyword} FOUND MATCHING REQUEST CRITERIA")
        for record in records:
            self.details(self.command, record.attributes, keyword)
        return self.done()

    def done(self, ok: bool = True) -> Result:
        head = count_line(len(self.messages) + 2, ok)
        last = (
            Message(
                f"{cpf(self.qmgr)} {self.csect} ' {self.command}' NORMAL COMPLETION", "CSQ9022I", zos=True
            )
            if ok
            else Message(
                f"{cpf(self.qmgr)} {self.csect} ' {self.command}' ABNORMAL COMPLETION", "CSQ9023E", zos=True
            )
        )
        return Result([head, *self.messages, last], ok=ok)

    def failed(self, msgid: str, text: str) -> Result:
        self.say(msgid, text)
        return self.done(ok=False)


@dataclass
class Scoped:
    """The replies to a command run on several queue managers of the group: CMDSCOPE, or the command
    QSGDISP(GROUP) generates for the active members.

    First the entering queue manager's reply that it sent the command on
    (CSQN137I for CMDSCOPE, CSQN138I for a generated command; CSQN205I with
    reason 4, as the MQSeries::Command Perl module expects), then each
    queue manager's own reply opened by CSQN121I, then CSQN122I (or CSQN123E
    when one of them failed). IBM documents no texts for CSQN121I, CSQN122I
    and CSQN123E: they are written in the style of CSQN137I and CSQN138I.
    """

    qmgr: str  # where the command was entered
    command: str  # verb and object: "DEFINE QLOCAL"
    scope: str  # CMDSCOPE: "*" or a queue manager's name
    generated: bool = False
    blocks: list[Result] = field(default_factory=list)

    def member(self, name: str, csect: str) -> Reply:
        """The reply of one queue manager, its first message naming it."""
        reply = Reply(name, csect, self.command)
        reply.messages.append(
            Message(f"{cpf(self.qmgr)} '{self.command}' command responses from {name}", "CSQN121I", zos=True)
        )
        return reply

    def done(self) -> Result:
        ok = bool(self.blocks) and all(block.ok for block in self.blocks)  # sent to none: not carried out
        how = "generated" if self.generated else "accepted"
        head = [
            count_line(2, reason=SENT_ON_REASON),
            Message(
                f"{cpf(self.qmgr)} '{self.command}' command {how} for CMDSCOPE({self.scope}), "
                f"sent to {len(self.blocks)}",
                "CSQN138I" if self.generated else "CSQN137I",
                zos=True,
            ),
        ]
        last = (
            Message(
                f"{cpf(self.qmgr)} '{self.command}' command for CMDSCOPE({self.scope}) normal completion",
                "CSQN122I",
                zos=True,
            )
            if ok
            else Message(
                f"{cpf(self.qmgr)} '{self.command}' command for CMDSCOPE({self.scope}) abnormal completion",
                "CSQN123E",
                zos=True,
            )
        )
        return Result(
            [
                *head,
                *(response for block in self.blocks for response in block.responses),
                count_line(2, ok),
                last,
            ],
            ok=ok,
        )
