"""A repository manager's clock: the hourly warnings about records not re-published, their
deletion 60 days after expiry, and when it next has something to do by itself.

AMQ9456 is written for a queue record past its expiry on a queue manager that put to the queue in
the 30 days before it, AMQ9469 for a queue-manager record on a full repository, each once an hour
from the expiry until the record is deleted (IBM MQ docs: REFRESH CLUSTER; APARs IT28022,
IT40792). A lab that jumps days gets each warning
at its own hour: they are written at the next turn, stamped with the time they were due.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from mqsh.model.cluster.cache import QMGR, QUEUE, ClusterCache, Record
from mqsh.model.cluster.texts import not_received

if TYPE_CHECKING:
    from mqsh.model.qmgr import QueueManager

TIMESTAMP = "%Y-%m-%d %H:%M:%S"
REPUBLISH = timedelta(days=27)
KEPT_AFTER_EXPIRY = timedelta(days=60)
WARN_EVERY = timedelta(hours=1)
USED_WITHIN = timedelta(days=30)


class RepositoryManager(Protocol):
    """What the clock needs of a repository manager (mqsh.model.cluster.manager)."""

    qmgr: QueueManager
    cache: ClusterCache

    def full_repository_of(self, cluster: str) -> bool: ...


def stamp(when: datetime) -> str:
    return when.strftime(TIMESTAMP)


def moment(text: str) -> datetime:
    return datetime.strptime(text, TIMESTAMP)


def keep_time(manager: RepositoryManager, now: datetime) -> None:
    """Hourly warnings from a record's expiry, and its deletion 60 days after it."""
    changed = []
    for record in manager.cache.expired(stamp(now)):
        if _warns(manager, record):
            changed.append(_warn(manager, record, now))
        if now >= moment(record.expiry) + KEPT_AFTER_EXPIRY:
            record.deleted, record.in_use = stamp(moment(record.expiry) + KEPT_AFTER_EXPIRY), False
            changed.append(record)
    if changed:
        manager.cache.save(*changed)


def _warns(manager: RepositoryManager, record: Record) -> bool:
    if record.kind == QMGR:
        return manager.full_repository_of(record.cluster)
    if record.kind != QUEUE:
        return False
    last = manager.cache.last_put(record.name)
    return last is not None and moment(last) >= moment(record.expiry) - USED_WITHIN


def _warn(manager: RepositoryManager, record: Record, now: datetime) -> Record:
    """Every hourly warning due up to now, each at its hour."""
    expiry = moment(record.expiry)
    at = moment(record.warned) + WARN_EVERY if record.warned else expiry
    end = min(now, expiry + KEPT_AFTER_EXPIRY)
    while at <= end:
        msgid, text, explanation, action = not_received(record, at)
        manager.qmgr.errors.write(msgid, text, explanation, action, at=at)
        record.warned = stamp(at)
        at += WARN_EVERY
    return record


def next_due(manager: RepositoryManager, now: datetime) -> datetime | None:
    """The next moment after now at which the manager changes something by itself (a
    re-publish, a deletion); hourly warnings are written at the next turn with their times."""
    if not manager.cache.exists():
        return None  # in no cluster: nothing of its own to do (and no cache to make by looking)
    # the first re-publish after now, and the first deletion (60 days past an expiry) after now
    published = manager.cache.earliest(True, stamp(now - REPUBLISH))
    expiry = manager.cache.earliest(False, stamp(now - KEPT_AFTER_EXPIRY))
    due = [moment(published) + REPUBLISH] if published else []
    due += [moment(expiry) + KEPT_AFTER_EXPIRY] if expiry else []
    return min(due) if due else None
