"""What a channel instance is doing: the status table DISPLAY CHSTATUS shows.

A queue manager keeps it in memory, as MQ's channel initiator does: a channel is running
only while some process runs its queue manager and it has been started there.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

RUNNING, RETRYING, STOPPED = "RUNNING", "RETRYING", "STOPPED"
SENDER, RECEIVER = "SENDER", "RECEIVER"


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
    user: str = ""  # a receiving end's MCA user id, as the partner's CHLAUTH records decided it
