"""What a channel instance is doing: the status table DISPLAY CHSTATUS shows.

A queue manager keeps it in memory, as MQ's channel initiator does: a channel is running
only while some process runs its queue manager and it has been started there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

RUNNING, RETRYING, STOPPED = "RUNNING", "RETRYING", "STOPPED"
STARTING = "STARTING"  # started by a command or a message waiting, until the network's next turn
SENDER, RECEIVER = "SENDER", "RECEIVER"
REQUESTER = "REQUESTER"  # a requester (RQSTR) calling its partner to start sending, until it has


@dataclass
class ChannelState:
    role: str  # SENDER starts the conversation (SDR, CLUSSDR); RECEIVER answers it (RCVR, CLUSRCVR)
    status: str
    started: datetime
    partner: str = ""  # the queue manager at the other end (RQMNAME)
    conname: str = ""  # where the other end was reached (a sender's CONNAME, a receiver's partner host)
    msgs: int = 0
    batches: int = 0
    last_seq: int = 0
    last_message: datetime | None = None
    problem: str = ""  # the error last written for it, so that a retry does not write it again
    # A sender's AMQ9002I is written once per start (START CHANNEL, a trigger, a message for a
    # cluster channel), at its first connection: a retrying channel that connects again, or
    # moves to its partner's other address, is the same start.
    announced: bool = False
    user: str = ""  # a receiving end's MCA user id, as the partner's CHLAUTH records decided it
    # A receiving end's partners running now, each admitted once as it started: a cluster
    # receiver answers many senders, and one starting does not check the others again.
    admitted: set[str] = field(default_factory=set)
    connected_at: datetime | None = None  # when a sender last connected: its DISCINT counts from there
    requested_by: str = ""  # a server started by a requester: the queue manager it sends to
    # A sender's retries (mqsh.model.network.retry): when it tries next, and how many are left.
    next_try: datetime | None = None
    short_left: int | None = None
    long_left: int | None = None
