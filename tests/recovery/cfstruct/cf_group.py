"""Members of a queue-sharing group writing shared-message records on their own logs, and a live model.

Group.put, get, end... write the records a member logs for each change (with
an LRSN from the group's one counter) and keep the structure as the coupling
facility would hold it: entry id -> its fields and state, C (committed),
P (put pending in a unit), G (got pending in a unit). expected() is what a
recovery must give: the committed entries once open units are backed out.
recover() is a recovery made while the members work: the units it finds open
lose their work in the structure, and the ending their members log for them
afterwards is a backout (their MQCMIT gets MQRC_BACKED_OUT).
"""

from __future__ import annotations

import random

from mqsh.recovery.cfstruct.outcome import Backup
from mqsh.store import columnar, log_writer

CF = "APP1"


class Group:
    def __init__(self, root, members=("QM1", "QM2", "QM3"), extent_bytes: int = 1500, seed: int = 0):
        self.random = random.Random(seed)
        self.lrsn = 1_700_000_000_000_000
        self.dirs = {member: root / member / "active" for member in members}
        self.writers = {
            member: log_writer.LogWriter(path, extent_bytes, 0, on_seal=columnar.write_copy)
            for member, path in self.dirs.items()
        }
        self.entries: dict[str, dict] = {}  # of CF, as the structure holds them
        self.put_at: dict[str, int] = {}  # entry -> the LRSN of its SPUT
        self.states: dict[str, tuple[str, tuple[str, str] | None]] = {}  # e -> (C/P/G, unit)
        self.open: dict[str, dict[str, set[str]]] = {member: {} for member in members}  # member -> u -> cfs
        self.doomed: set[tuple[str, str]] = set()  # units open at a recovery of CF: they can only back out
        self.units = 0

    def log(self, member: str, record: dict, shared: bool = True) -> int:
        if shared:
            self.lrsn += self.random.randint(1, 9)
            record = {**record, "r": self.lrsn}
        return self.writers[member].append(record)

    def unit(self, member: str, cf: str = CF) -> str:
        """A unit of work of member's (new, or one already open), noted as touching cf."""
        units = self.open[member]
        if units and self.random.random() < 0.6:
            uow = self.random.choice(sorted(units))
        else:
            self.units += 1
            uow = f"{self.writers[member].next_lsn}.{self.units}"
        units.setdefault(uow, set()).add(cf)
        return uow

    def put(
        self, member: str, uow: str | None, cf: str = CF, offload: bool = False, priority: int = 0
    ) -> str:
        entry = f"{self.lrsn + 1:016X}"
        owner, first, count = (
            (member, self.random.randint(0, 999), self.random.randint(1, 3))
            if offload
            else (None, None, None)
        )
        if offload:
            for block in range(count):
                self.log(
                    member, {"t": "SBLK", "cf": cf, "e": entry, "o": owner, "b": first + block, "n": count}
                )
        fields = {
            "cf": cf,
            "sq": f"SQ{priority % 3}",
            "e": entry,
            "p": priority,
            "s": 10 + priority,
            "tm": "2026-05-01T10:00:00",
            "o": owner,
            "b": first,
            "n": count,
        }
        self.log(member, {"t": "SPUT", **fields, "u": uow})
        if cf == CF:
            self.put_at[entry] = self.lrsn  # its SPUT's LRSN (its blocks' SBLK records came first)
            self.entries[entry] = fields
            self.states[entry] = ("P", (member, uow)) if uow else ("C", None)
        return entry

    def available(self) -> list[str]:
        return sorted(entry for entry, (state, _unit) in self.states.items() if state == "C")

    def get(self, member: str, entry: str, uow: str | None) -> None:
        self.log(member, {"t": "SGET", "cf": CF, "e": entry, "u": uow})
        if uow is None:
            del self.entries[entry], self.states[entry]
        else:
            self.states[entry] = ("G", (member, uow))

    def end(self, member: str, uow: str, commit: bool) -> None:
        cfs = sorted(self.open[member].pop(uow))
        commit = commit and (member, uow) not in self.doomed
        self.log(member, {"t": "CMT" if commit else "BCK", "u": uow, "qs": [], "cfs": cfs})
        self._resolve((member, uow), commit)

    def _resolve(self, unit, commit: bool) -> None:
        for entry, (state, holder) in list(self.states.items()):
            if holder != unit:
                continue
            if (state == "P") == commit:
                self.states[entry] = ("C", None)
            else:
                del self.entries[entry], self.states[entry]

    def recover(self) -> None:
        """CF failed and recovered: the units open in it are backed out there, and stay open, doomed."""
        for unit in {holder for _state, holder in self.states.values() if holder is not None}:
            self.doomed.add(unit)
            self._resolve(unit, commit=False)

    def local(self, member: str) -> None:
        """Records of the member's own queues, which a recovery of the structure passes over."""
        self.log(
            member,
            {"t": "PUT", "q": "LQ", "m": f"M{self.lrsn}", "p": 0, "s": 1, "tm": "t", "u": None},
            shared=False,
        )
        if self.random.random() < 0.3:
            self.log(member, {"t": "CKPT", "uows": {}, "media": {}}, shared=False)

    def backup(self, member: str, excluded: int = 0) -> Backup:
        """BACKUP CFSTRUCT by member: every entry, those a unit holds with their unit (mb, u, st) - as of
        excluded LRSNs before it started (EXCLINT): the entries put since are left out, and the backup's
        LRSN is that earlier one."""
        lrsn = self.lrsn - excluded
        start = self.log(member, {"t": "SBKS", "cf": CF})
        # The entries put by then: in mqsh an entry's id is its SPUT's LRSN; here the SBLK records of an
        # offloaded message take LRSNs between the two, so the SPUT's own is what counts.
        kept = {entry: held for entry, held in self.states.items() if self.put_at[entry] <= lrsn}
        for entry, (state, unit) in sorted(kept.items()):
            held = {"st": state, "mb": unit[0], "u": unit[1]} if unit is not None else {}
            self.writers[member].append({"t": "SBKP", **self.entries[entry], **held})
        end = self.log(member, {"t": "SBKE", "cf": CF, "c": len(kept)})
        return Backup(member, start, end, lrsn)

    def close(self) -> None:
        for writer in self.writers.values():
            writer.close()

    def expected(self) -> list[dict]:
        """The entries a recovery gives: open units backed out, sorted by entry id."""
        kept = [entry for entry, (state, _unit) in self.states.items() if state != "P"]
        return [self.entries[entry] for entry in sorted(kept)]
