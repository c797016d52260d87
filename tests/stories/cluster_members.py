"""The steps a cluster story takes on its members once the cluster has formed, drawn so that each
makes sense: a start of one ended, a restore from a backup of this queue manager as it is, a RESET
CLUSTER after a rebuild on a full repository that knows the old QMID.

A full repository is backed up, restored and rebuilt only where there are two: IBM MQ's
"Recovering a cluster queue manager" has a restored queue manager bring its cluster information
up to date from the full repositories, and a full repository learns what it lacks from the other
one; a lone one has none to learn from, and IBM does not say what it becomes.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

END, START, BACKUP, RESTORE, REBUILD, RESET, REFRESH = (
    "end",
    "start",
    "backup",
    "restore",
    "rebuild",
    "reset",
    "refresh",
)


class Members:
    """The generator's view of what it did to the members."""

    def __init__(self, full: tuple[str, ...], partial: tuple[str, ...]):
        self.full, self.partial = full, partial
        self.ended: set[str] = set()
        self.backups: list[tuple[str, str]] = []  # (queue manager, backup name)
        self.taken = 0  # backups taken: each has a name of its own
        # (queue manager rebuilt, the full repositories that may RESET CLUSTER its old QMID)
        self.rebuilt: list[tuple[str, list[str]]] = []
        self.fresh: set[str] = set()  # full repositories rebuilt since the last settle: they know nothing yet

    def settled(self) -> None:
        self.ended.clear()
        self.fresh.clear()

    def recoverable(self) -> tuple[str, ...]:
        """The members a story backs up, restores and rebuilds (see the module's note)."""
        return self.partial + (self.full if len(self.full) == 2 else ())

    def step(self, rng: random.Random) -> Hashable:
        kinds = [END, START, BACKUP, RESTORE, REBUILD, RESET, REFRESH]
        resettable = [(q, frs) for q, frs in self.rebuilt if set(frs) - self.fresh]
        weights = [3, 3 if self.ended else 0, 2, 5 if self.backups else 0, 1, 3 if resettable else 0, 2]
        kind = rng.choices(kinds, weights)[0]
        if kind == END:
            qmgr = rng.choice(self.full + self.partial)
            self.ended.add(qmgr)
            return (END, qmgr, rng.random() < 0.5)
        if kind == START:
            qmgr = rng.choice(sorted(self.ended))
            self.ended.discard(qmgr)
            return (START, qmgr)
        if kind == BACKUP:
            qmgr = rng.choice(self.recoverable())
            self.taken += 1
            self.backups.append((qmgr, f"B{self.taken}"))
            return (BACKUP, *self.backups[-1])
        if kind == RESTORE:
            return self._restore(rng)
        if kind == REBUILD:
            return self._rebuild(rng)
        if kind == RESET:
            qmgr, frs = resettable[0]
            self.rebuilt.remove((qmgr, frs))
            self._forget_full_backups()
            return (RESET, rng.choice(sorted(set(frs) - self.fresh)), qmgr, rng.random() < 0.8)
        return self._refresh(rng)

    def _restore(self, rng: random.Random) -> Hashable:
        """A restore; of a full repository, the other's backups are dropped: both restored, each
        from before the other's restore, the two together would hold less than the cluster sent
        them, which the model does not follow."""
        qmgr, name = rng.choice(self.backups)
        self.ended.discard(qmgr)
        if qmgr in self.full:
            self.backups = [(q, n) for q, n in self.backups if q == qmgr or q not in self.full]
        return (RESTORE, qmgr, name)

    def _rebuild(self, rng: random.Random) -> Hashable:
        """dltmqm and crtmqm: a partial repository, now and then without its cluster queue (the
        queue withdrawn from the cluster), or, where there are two, a full repository. The
        full repositories' backups go: one from before a rebuild brings back a cluster that no
        longer is (IBM's note "Avoiding MQ cluster problems after Disaster Recovery testing")."""
        full = len(self.full) == 2 and rng.random() < 0.3
        qmgr = rng.choice(self.full if full else self.partial)
        self.ended.discard(qmgr)
        self.backups = [(q, name) for q, name in self.backups if q != qmgr]
        self._forget_full_backups()
        others = [fr for fr in self.full if fr != qmgr]
        self.rebuilt = [(q, [fr for fr in frs if fr != qmgr]) for q, frs in self.rebuilt]
        self.rebuilt = [(q, frs) for q, frs in self.rebuilt if frs]
        self.rebuilt.append((qmgr, others))
        if full:
            self.fresh.add(qmgr)
        return (REBUILD, qmgr, rng.randint(1, 30), rng.choice(others or self.full), rng.random() < 0.75)

    def _forget_full_backups(self) -> None:
        self.backups = [(q, name) for q, name in self.backups if q not in self.full]

    def _refresh(self, rng: random.Random) -> Hashable:
        """REFRESH CLUSTER on a partial repository (REPOS(NO) or REPOS(YES); one with a backup more
        often, to tell restores after it), or on a full repository: REPOS(YES), which must be refused,
        or REPOS(NO) where there is another full repository to rebuild from. IBM's "REFRESH CLUSTER"
        page has a full repository rebuild what it drops from the other full repositories, and does
        not say what a lone one learns again, so no story refreshes one."""
        backed_up = [q for q, _ in self.backups]
        qmgr = rng.choice(backed_up if backed_up and rng.random() < 0.6 else self.full + self.partial)
        repos = rng.random() < 0.5 or (qmgr in self.full and len(self.full) == 1)
        return (REFRESH, qmgr, repos, rng.randint(1, 10))
