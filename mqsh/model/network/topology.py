"""Sites and the links between them, hosts' IP addresses, and where a CONNAME points.

Every host is in one site (MAIN until LAB SITE puts it elsewhere), and every two sites are
joined until LAB NETWORK CUT cuts them apart, as a firewall or a missing route would: a
channel between hosts of two cut sites cannot connect. Every host has an IPv4 address, the
one a receiving queue manager sees a channel come from (and matches CHLAUTH rules against):
until LAB SITE ... ADDRESS(a.b.c.d) sets one, an address in 10.0.0.0/8 derived from the
host's name, so that it is the same in every process and every run. The lab's network is one
file of the data directory (network.json), so that every process sees the same network.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from mqsh.store.files import CorruptFile, read_document, write_document

DEFAULT_SITE = "MAIN"
DEFAULT_PORT = 1414
# host(port), host or an IPv4 address, as CONNAME holds them; a list is separated by commas.
_ADDRESS = re.compile(r"^\s*([^\s(),]+)\s*(?:\(\s*(\d{1,5})\s*\))?\s*$")
_IPV4 = re.compile(r"^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$")


def ipv4(text: str) -> str | None:
    """The address in its usual form (no leading zeros), or None when text is not an IPv4 address."""
    match = _IPV4.match(text.strip())
    if not match or any(int(part) > 255 for part in match.groups()):
        return None
    return ".".join(str(int(part)) for part in match.groups())


def default_address(host: str) -> str:
    """A host's address until one is set: 10.x.y.z from a digest of its lower-case name, the
    last part 1 to 254 (never a network or broadcast address). Two hosts may share one only
    by a one-in-sixteen-million chance; LAB SITE ... ADDRESS sets either apart."""
    digest = hashlib.sha256(host.lower().encode("utf-8")).digest()
    return f"10.{digest[0]}.{digest[1]}.{digest[2] % 254 + 1}"


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
            return {"sites": {}, "cuts": [], "addresses": {}}
        if not self._well_formed(document):
            return {"sites": {}, "cuts": [], "addresses": {}}
        document.setdefault("addresses", {})  # a file written before hosts had addresses
        return document

    @staticmethod
    def _well_formed(document) -> bool:
        return (
            isinstance(document, dict)
            and isinstance(document.get("sites"), dict)
            and isinstance(document.get("cuts"), list)
            and isinstance(document.get("addresses", {}), dict)
        )

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

    def address_of(self, host: str) -> str:
        """The host's IPv4 address: the one set for it, else its default."""
        return str(self._read()["addresses"].get(host.lower()) or default_address(host))

    def set_address(self, host: str, address: str) -> None:
        document = self._read()
        document["addresses"][host.lower()] = address
        self._write(document)

    def host_at(self, address: str, hosts: list[str]) -> str | None:
        """Which of the hosts has the address (a CONNAME may name a host by its address)."""
        assigned = self._read()["addresses"]
        return next(
            (
                host.lower()
                for host in hosts
                if str(assigned.get(host.lower()) or default_address(host)) == address
            ),
            None,
        )

    def sites(self) -> dict[str, list[str]]:
        """Each site with its hosts (those LAB SITE named; every other host is in MAIN)."""
        document = self._read()
        found: dict[str, list[str]] = {DEFAULT_SITE: []}
        for host in sorted(set(document["sites"]) | set(document["addresses"])):
            found.setdefault(document["sites"].get(host, DEFAULT_SITE), []).append(host)
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
        sites = sorted(
            (
                document["sites"].get(host.lower(), DEFAULT_SITE),
                document["sites"].get(other.lower(), DEFAULT_SITE),
            )
        )
        return sites[0] == sites[1] or sites not in document["cuts"]
