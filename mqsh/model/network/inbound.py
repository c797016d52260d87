"""Whether a queue manager lets an inbound channel start: its channel authentication records.

One question, asked by whatever starts a channel to a queue manager (a sender for its
receiver, a cluster-sender for its cluster-receiver): given the receiving queue manager, the
channel's name, the partner queue manager's name and the address the connection comes from,
may the channel start, and under which user id does its message channel agent run?

The checks follow MQ's order ("Interaction between CHLAUTH and CONNAUTH", IBM MQ 9.x):

1. ALTER QMGR CHLAUTH(DISABLED): no record is looked at; the channel runs as its MCAUSER.
2. TYPE(BLOCKADDR): the address is checked before anything is read from the connection, so
   before the channel's name is known (AMQ9782E names no channel).
3. The mapping records (SSLPEERMAP, USERMAP, QMGRMAP, ADDRESSMAP): the one that matches the
   channel most specifically decides - USERSRC(MAP) runs the channel as its MCAUSER,
   USERSRC(CHANNEL) as the channel's own, USERSRC(NOACCESS) refuses it (AMQ9777E).
4. TYPE(BLOCKUSER): the user the channel would run as, against the user list - for
   server-connection channels only: "The user list provided on a TYPE(BLOCKUSER) only applies
   to SVRCONN channels and not queue manager to queue manager channels" (IBM MQ, "Blocking
   specific user IDs"). So the default rule SET CHLAUTH('*') TYPE(BLOCKUSER)
   USERLIST('*MQADMIN') does not block a receiver whose blank MCAUSER makes it run as the
   queue manager's own (privileged) user, as it would a client.

A record with WARN(YES) that would refuse the channel lets it start and says so instead
(MQRC_CHANNEL_BLOCKED_WARNING). The decision has no side effects: the caller writes the
entries it returns, so that a channel that retries says why only once.

Each refusal and warning says which kind of block it is (ChannelLogEntry.blocked: ADDRESS, NOACCESS or
USERID), the reason qualifier of the Channel Blocked event the caller puts
(mqsh.model.network.events). TLS is not modelled, so no SSLPEERMAP record ever matches, and no
client asserts a user, so USERMAP records do not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mqsh.store.identity import process_user

if TYPE_CHECKING:
    from mqsh.model.qmgr import QueueManager

# The mapping types in the order MQ's flow looks for them; the first of the most specific
# channel profile's matching records decides.
MAPPING_ORDER = ("SSLPEERMAP", "USERMAP", "QMGRMAP", "ADDRESSMAP")
CLIENT_TYPES = ("SVRCONN",)  # channels a client starts: USERMAP and BLOCKUSER apply to them only
MQADMIN = "*MQADMIN"
# A record in warning mode (WARN(YES)) that would have blocked a channel: IBM documents the
# Channel Blocked event's reason for it (MQRC_CHANNEL_BLOCKED_WARNING) but no error-log id, so
# mqsh writes AMQ9787W in MQ's style (docs/messages.md lists it).
WARNING_ID = "AMQ9787W"

CHLAUTH_ACTION = (
    "Contact the systems administrator, who should examine the channel authentication records to "
    "ensure that the correct settings have been configured. The ALTER QMGR CHLAUTH switch is used "
    "to control whether channel authentication records are used. The command DISPLAY CHLAUTH can be "
    "used to query the channel authentication records."
)


# The sending side of a channel its partner's CHLAUTH records refused: IBM documents no message
# for it. The partner ends the conversation as for a channel it cannot run, so the sender
# reports the remote channel as not available (AMQ9558E, in MQ's own explanation).
_SENDER_NOT_AVAILABLE = (
    "AMQ9558E",
    "Remote Channel '{name}' is not currently available.",
    "The channel program ended because the channel '{name}' is not currently available on the "
    "remote system. This could be because the channel is disabled or that the remote system "
    "does not have sufficient resources to run a further channel.",
)


@dataclass(frozen=True)
class ChannelLogEntry:
    """An error-log entry: what a queue manager writes about the channel."""

    msgid: str
    text: str
    explanation: str
    action: str = ""
    blocked: str = ""  # for a block, or a warning of one: the Channel Blocked event's reason qualifier


@dataclass(frozen=True)
class Refusal:
    """Why the channel may not start: the receiving side's entry and, for the sending side,
    the retry cause (its CONNAME is filled in by sender())."""

    receiver: ChannelLogEntry
    sender_msgid: str
    sender_text: str
    sender_explanation: str

    def sender(self, name: str, conname: str) -> ChannelLogEntry:
        return ChannelLogEntry(
            self.sender_msgid,
            self.sender_text.format(name=name, conname=conname),
            self.sender_explanation.format(name=name, conname=conname),
        )


@dataclass(frozen=True)
class Verdict:
    address: str  # where the channel comes from
    user: str  # the user id the channel's MCA runs as (DISPLAY CHSTATUS MCAUSER)
    refusal: Refusal | None = None
    warnings: tuple[ChannelLogEntry, ...] = field(default=())  # WARN(YES) records that would have refused it

    @property
    def accepted(self) -> bool:
        return self.refusal is None


def check(receiver: QueueManager, channel: str, partner: str, address: str) -> Verdict:
    """Whether the receiver accepts the channel from queue manager partner at address."""
    definition = receiver.lookup("CHANNEL", channel)
    attributes = definition.attributes if definition is not None else {}
    own_user = str(attributes.get("MCAUSER") or "") or process_user()
    if str(receiver.qmgr_object.attributes.get("CHLAUTH", "ENABLED")) == "DISABLED":
        return Verdict(address, own_user)
    rules = [rule.attributes for rule in receiver.objects("CHLAUTH")]
    warnings: list[ChannelLogEntry] = []
    for rule in rules:
        if rule.get("TYPE") == "BLOCKADDR" and any(
            address_matches(str(pattern), address) for pattern in rule.get("ADDRLIST") or []
        ):
            if _warn(rule):
                warnings.append(
                    _would_have(
                        f"A connection from remote address '{address}' would have been blocked "
                        "because the address matches a channel authentication record of "
                        "TYPE(BLOCKADDR), which is in warning mode (WARN(YES)).",
                        "ADDRESS",
                    )
                )
                continue
            return Verdict(address, own_user, _blocked_address(address), tuple(warnings))
    if definition is None:
        return Verdict(
            address, own_user, None, tuple(warnings)
        )  # the caller says the channel is not defined here
    chltype = str(attributes.get("CHLTYPE", ""))
    user = own_user
    mapping = _mapping(rules, channel, chltype, partner, address)
    if mapping is not None:
        source = mapping.get("USERSRC", "MAP")
        if source == "NOACCESS":
            active = _active_values(chltype, partner, address)
            if not _warn(mapping):
                return Verdict(address, own_user, _no_access(channel, address, active), tuple(warnings))
            warnings.append(
                _channel_would_have(
                    channel,
                    address,
                    "the active values of the channel matched a record "
                    "configured with USERSRC(NOACCESS) and WARN(YES). The active values "
                    f"of the channel were '{active}'.",
                    "NOACCESS",
                )
            )
        elif source == "MAP":
            user = str(mapping.get("MCAUSER") or "") or own_user
    if chltype in CLIENT_TYPES:
        blocked = _blocked_user(rules, channel, user)
        if blocked is not None:
            if not _warn(blocked):
                return Verdict(address, user, _blocked_user_refusal(channel, address, user), tuple(warnings))
            warnings.append(
                _channel_would_have(
                    channel,
                    address,
                    "the active values of the channel were mapped to a "
                    "userid which should be blocked, by a record in warning mode "
                    "(WARN(YES)). The active values of the channel were "
                    f"'MCAUSER({user})'.",
                    "USERID",
                )
            )
    return Verdict(address, user, None, tuple(warnings))


def _would_have(explanation: str, blocked: str) -> ChannelLogEntry:
    return ChannelLogEntry(
        WARNING_ID, "Channel would have been blocked.", explanation, CHLAUTH_ACTION, blocked
    )


def _channel_would_have(channel: str, address: str, because: str, blocked: str) -> ChannelLogEntry:
    return _would_have(
        f"The inbound channel '{channel}' would have been blocked from address '{address}' because {because}",
        blocked,
    )


def _warn(rule: dict) -> bool:
    return str(rule.get("WARN", "NO")) == "YES"


def _active_values(chltype: str, partner: str, address: str) -> str:
    # IBM documents AMQ9777E's active values only for clients ('CLNTUSER(..) ADDRESS(..)'); for a
    # queue manager's channel mqsh names the partner with the keyword CHLAUTH matches it by.
    return f"ADDRESS({address})" if chltype in CLIENT_TYPES else f"QMNAME({partner}) ADDRESS({address})"


def _blocked_address(address: str) -> Refusal:
    # AMQ9782E's id and title are MQ's; IBM documents no explanation text, so it is written in
    # the style of AMQ9777E. The sending side reads nothing back from a connection
    # closed before its first flow, and reports the failed receive (AMQ9208E) as MQ does for
    # any connection its partner drops.
    return Refusal(
        ChannelLogEntry(
            "AMQ9782E",
            "Remote connection blocked.",
            f"A connection from remote address '{address}' was blocked because the address matches a "
            "channel authentication record of TYPE(BLOCKADDR).",
            CHLAUTH_ACTION,
            "ADDRESS",
        ),
        "AMQ9208E",
        "Error on receive from host '{conname}'.",
        "An error occurred receiving data from '{conname}' over TCP/IP: the remote end closed the "
        "connection before the channel '{name}' could start.",
    )


def _no_access(channel: str, address: str, active: str) -> Refusal:
    return Refusal(
        ChannelLogEntry(
            "AMQ9777E",
            "Channel was blocked",
            f"The inbound channel '{channel}' was blocked from address '{address}' because the active "
            "values of the channel matched a record configured with USERSRC(NOACCESS). The active "
            f"values of the channel were '{active}'.",
            CHLAUTH_ACTION,
            "NOACCESS",
        ),
        *_SENDER_NOT_AVAILABLE,
    )


def _blocked_user(rules: list[dict], channel: str, user: str) -> dict | None:
    """The most specific BLOCKUSER record for the channel, when it lists the user."""
    found = [
        rule
        for rule in rules
        if rule.get("TYPE") == "BLOCKUSER" and profile_matches(str(rule.get("CHLAUTH", "")), channel)
    ]
    if not found:
        return None
    best = min(found, key=lambda rule: _profile_rank(str(rule.get("CHLAUTH", ""))))
    listed = [str(name) for name in best.get("USERLIST") or []]
    if user not in listed and not (MQADMIN in listed and privileged(user)):
        return None
    return best


def _blocked_user_refusal(channel: str, address: str, user: str) -> Refusal:
    return Refusal(
        ChannelLogEntry(
            "AMQ9776E",
            "Channel was blocked by userid",
            f"The inbound channel '{channel}' was blocked from address '{address}' because the active "
            "values of the channel were mapped to a userid which should be blocked. The active values "
            f"of the channel were 'MCAUSER({user})'.",
            CHLAUTH_ACTION,
            "USERID",
        ),
        *_SENDER_NOT_AVAILABLE,
    )


def privileged(user: str) -> bool:
    """*MQADMIN: the administrative users - mqm, and the user the queue managers run as (mqsh
    has no groups: the user that runs it owns the queue managers, as mqm's members do)."""
    return user in ("mqm", process_user())


def _mapping(rules: list[dict], channel: str, chltype: str, partner: str, address: str) -> dict | None:
    """The mapping record that decides: most specific channel profile first, then MQ's order of
    types, then the most specific partner name and address."""
    candidates = []
    for rule in rules:
        kind = rule.get("TYPE")
        if kind not in MAPPING_ORDER or not profile_matches(str(rule.get("CHLAUTH", "")), channel):
            continue
        if kind in ("SSLPEERMAP", "USERMAP") or (kind == "QMGRMAP" and chltype in CLIENT_TYPES):
            continue  # no TLS peer and no client user to match; QMGRMAP is for queue managers' channels
        if kind == "QMGRMAP" and not profile_matches(str(rule.get("QMNAME", "")), partner):
            continue
        pattern = str(rule.get("ADDRESS") or "*")
        if not address_matches(pattern, address):
            continue
        rank = (
            _profile_rank(str(rule.get("CHLAUTH", ""))),
            MAPPING_ORDER.index(kind),
            _profile_rank(str(rule.get("QMNAME", "*"))),
            _address_rank(pattern),
        )
        candidates.append((rank, rule))
    return min(candidates, key=lambda item: item[0])[1] if candidates else None


def profile_matches(pattern: str, name: str) -> bool:
    """A CHLAUTH profile (channel or queue manager name): asterisks anywhere, each any run of
    characters; everything else exactly."""
    return re.fullmatch(".*".join(re.escape(part) for part in pattern.split("*")), name) is not None


def _profile_rank(pattern: str) -> tuple:
    """Smaller is more specific: a name before any generic profile, then the profile with more
    characters that are not asterisks, then the one whose first asterisk comes later."""
    if "*" not in pattern:
        return (0, 0, 0, pattern)
    return (1, -len(pattern.replace("*", "")), -pattern.index("*"), pattern)


def address_matches(pattern: str, address: str) -> bool:
    """An IPv4 address against a generic IP address of a CHLAUTH record: parts separated by
    dots, each a number, a range (1-8), or an asterisk standing for one or more parts ('*'
    alone matches every address). A host-name pattern (REVDNS) never matches: mqsh's hosts
    reach each other by address only."""
    parts = address.split(".")
    wanted = pattern.strip().split(".")
    if len(parts) != 4 or any(not _part_valid(part) for part in wanted):
        return False
    return _parts_match(wanted, parts)


def _part_valid(part: str) -> bool:
    return part == "*" or re.fullmatch(r"\d{1,3}(-\d{1,3})?", part) is not None


def _parts_match(wanted: list[str], parts: list[str]) -> bool:
    if not wanted:
        return not parts
    head, rest = wanted[0], wanted[1:]
    if head == "*":  # one or more parts
        return any(_parts_match(rest, parts[taken:]) for taken in range(1, len(parts) + 1))
    if not parts:
        return False
    low, _, high = head.partition("-")
    return int(low) <= int(parts[0]) <= int(high or low) and _parts_match(rest, parts[1:])


def _address_rank(pattern: str) -> tuple:
    """Smaller is more specific.

    IBM MQ docs (Channel authentication records) say the most specific matching address wins
    but not how two generic addresses rank; mqsh prefers more exact parts, then more ranges,
    then fewer wildcards."""
    parts = pattern.strip().split(".")
    exact = sum(1 for part in parts if part.isdigit())
    ranges = sum(1 for part in parts if "-" in part)
    return (-exact, -ranges, parts.count("*"))
