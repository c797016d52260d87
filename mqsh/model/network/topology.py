"""Sites and the links between them, and where a CONNAME points.

Every host is in one site (MAIN until LAB SITE puts it elsewhere), and every two sites are
joined until LAB NETWORK CUT cuts them apart, as a firewall or a missing route would: a
channel between hosts of two cut sites cannot connect. The lab's network is one file of the
data directory (network.json), so that every process sees the same network.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from mqsh.store.files import CorruptFile, read_document, write_document

DEFAULT_SITE = "MAIN"
DEFAULT_PORT = 1414
# host(port), host or an IPv4 address, as CONNAME holds them; a list is separated by commas.
_ADDRESS = re.compile(r"^\s*([^\s(),]+)\s*(?:\(\s*(\d{1,5})\s*\))?\s*$")


@dataclass(frozen=True)
class Address:
    host: str
    port: int

    def __str__(self) -> str:
        return f"{self.host}({self.port})"


def addresses(conname: str) -> list[Address]:
    """The addresses of a CONNAME, in the order a channel tries them; [] when it names none."""
    found = []
    for part in re.split(r",(?![^(]*\))", conname or ""):
        match = _ADDRESS.match(part)
        if match:
            found.append(Address(match.group(1).lower(), int(match.group(2) or DEFAULT_PORT)))
    return found


class Topology:
    def __init__(self, path: Path):
        self.path = path

    def _read(self) -> dict:
        """The network as the file holds it; a damaged file reads as the default network (one
        site, all joined), which LAB NETWORK says, until the next change writes it whole."""
        try:
            document = read_document(self.path)
        except (FileNotFoundError, CorruptFile):
            return {"sites": {}, "cuts": []}
        return document if self._well_formed(document) else {"sites": {}, "cuts": []}

    @staticmethod
    def _well_formed(document) -> bool:
        return isinstance(document, dict) and isinstance(document.get("sites"), dict) \
            and isinstance(document.get("cuts"), list)

    def damaged(self) -> bool:
        try:
            return not self._well_formed(read_document(self.path))
        except FileNotFoundError:
            return False
        except CorruptFile:
            return True

    def _write(self, document: dict) -> None:
        write_document(self.path, document, sync=True)

    def site_of(self, host: str) -> str:
        return self._read()["sites"].get(host.lower(), DEFAULT_SITE)

    def place(self, host: str, site: str) -> None:
        document = self._read()
        document["sites"][host.lower()] = site.upper()
        self._write(document)

    def sites(self) -> dict[str, list[str]]:
        """Each site with its hosts (those LAB SITE placed; every other host is in MAIN)."""
        found: dict[str, list[str]] = {DEFAULT_SITE: []}
        for host, site in sorted(self._read()["sites"].items()):
            found.setdefault(site, []).append(host)
        return found

    def cuts(self) -> list[tuple[str, str]]:
        return sorted(tuple(pair) for pair in self._read()["cuts"])

    def cut(self, first: str, second: str) -> None:
        document = self._read()
        pair = sorted((first.upper(), second.upper()))
        if pair not in document["cuts"]:
            document["cuts"].append(pair)
        self._write(document)

    def join(self, first: str, second: str) -> None:
        document = self._read()
        pair = sorted((first.upper(), second.upper()))
        document["cuts"] = [cut for cut in document["cuts"] if cut != pair]
        self._write(document)

    def joined(self, host: str, other: str) -> bool:
        """Whether a connection can go from one host to the other."""
        document = self._read()
        sites = sorted((document["sites"].get(host.lower(), DEFAULT_SITE),
                        document["sites"].get(other.lower(), DEFAULT_SITE)))
        return sites[0] == sites[1] or sites not in document["cuts"]
