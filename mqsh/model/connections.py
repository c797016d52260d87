"""The application connected to a queue manager: the one the LAB controls stand in for.

LAB PUT, GET, OPEN, COMMIT and BACKOUT are the MQI calls of one application.
It connects with its first call after the queue manager starts, and stays
connected until the queue manager ends or an administrator stops the
connection (STOP CONN), which backs out its unit of work and closes its
handles. If the queue manager ended with its unit of work in flight, its next
call is told the connection broke (MQRC 2009); the call after connects again.
DISPLAY CONN shows it, as MQ shows any application: above all which unit of
work it holds and since when, which is how an administrator finds the
long-running unit of work that keeps a log extent needed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass
class Connection:
    conn: str  # CONN: the last 8 bytes of MQ's 24-byte connection id, in hex
    extconn: str  # EXTCONN: its first 16 bytes, "AMQC" and the queue manager's name, in hex
    connected_at: datetime
    uow_started: datetime | None = None  # when the unit of work it has in flight began


def connect(qmgr_name: str, start_lsn: int, sequence: int, now: datetime) -> Connection:
    """A new connection to a queue manager that began this start at start_lsn.

    MQ's id is a prefix naming the queue manager and a part unique to the
    connection; here that part is the LSN the start began at (no two starts
    share one) and the connection's number within the start.
    """
    extconn = ("AMQC" + qmgr_name[:12]).ljust(16).encode("ascii", "replace").hex().upper()
    return Connection(f"{start_lsn & 0xFFFFFFFF:08X}{sequence:08X}", extconn, now)
