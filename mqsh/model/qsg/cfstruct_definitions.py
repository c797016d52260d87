"""CF application structures (CFSTRUCT objects): the rules a definition must keep.

A definition lives in the group's shared repository, never in a member's own
files: every member sees the same structures, and a change made from one is
seen by the others at their next command. The rules are z/OS's:

- the name is 1 to 12 characters, A-Z then A-Z or 0-9 (CSQ_ADMIN, the group's
  administration structure, is no application structure: no command names it);
- RECOVER(YES) needs CFLEVEL(3) or higher (BACKUP and RECOVER CFSTRUCT need both);
- the offload environment (OFFLOAD, the three offload rules, DSGROUP, DSBLOCK,
  DSBUFS, DSEXPAND) and RECAUTO / CFCONLOS(TOLERATE) are CFLEVEL(5) function;
- OFFLOAD(SMDS) needs a DSGROUP, a generic data set name whose one * each
  member's name takes the place of.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

ADMIN = "CSQ_ADMIN"
NAME = re.compile(r"^[A-Z][A-Z0-9]{0,11}$")
LEVEL5 = (
    "OFFLOAD",
    "OFFLD1SZ",
    "OFFLD1TH",
    "OFFLD2SZ",
    "OFFLD2TH",
    "OFFLD3SZ",
    "OFFLD3TH",
    "DSGROUP",
    "DSBLOCK",
    "DSBUFS",
    "DSEXPAND",
    "RECAUTO",
)
OFFLOAD_SIZE = re.compile(r"^(\d{1,2})K$")
# Offload rules at CFLEVEL(5): messages over the size go to the offload store once the structure
# is that full. 64K stands for "no rule": nothing under 63 KB is offloaded by it, as below CFLEVEL(5).
LEVEL5_RULES = {"OFFLD1SZ": "32K", "OFFLD2SZ": "4K", "OFFLD3SZ": "0K"}
NO_RULE = "64K"


@dataclass(frozen=True)
class ValueRefusal:
    """The keyword and value a definition cannot have (z/OS answers 'keyword(value) VALUE INVALID')."""

    keyword: str
    value: Any


def named_admin(name: str | None) -> bool:
    return name == ADMIN


def new_definition(catalogue_defaults: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """A new structure's attributes: the defaults its CFLEVEL has, then what the command set."""
    attributes = dict(catalogue_defaults)
    level = settings.get("CFLEVEL", attributes.get("CFLEVEL", 3))
    if level < 5:
        attributes.update({rule: NO_RULE for rule in LEVEL5_RULES})
    else:
        attributes.update(LEVEL5_RULES)
    attributes.update(settings)
    return attributes


def refusal(name: str, attributes: dict[str, Any], settings: dict[str, Any]) -> ValueRefusal | None:
    """What is wrong with a structure defined or altered to attributes by settings, or None."""
    if not NAME.match(name):
        return ValueRefusal("CFSTRUCT", name)
    level = attributes.get("CFLEVEL", 3)
    if attributes.get("RECOVER") == "YES" and level < 3:
        return ValueRefusal("RECOVER", "YES")
    if level < 5:
        for keyword in LEVEL5:
            if keyword in settings:
                return ValueRefusal(keyword, settings[keyword])
        if settings.get("CFCONLOS") == "TOLERATE":
            return ValueRefusal("CFCONLOS", "TOLERATE")
    for number in (1, 2, 3):
        size = str(attributes.get(f"OFFLD{number}SZ", NO_RULE))
        match = OFFLOAD_SIZE.match(size)
        if match is None or int(match.group(1)) > 64:
            return ValueRefusal(f"OFFLD{number}SZ", size)
    group = str(attributes.get("DSGROUP") or "").strip()
    if group and group.count("*") != 1:
        return ValueRefusal("DSGROUP", group)
    if level == 5 and attributes.get("OFFLOAD") == "SMDS" and not group:
        return ValueRefusal("OFFLOAD", "SMDS")
    return None
