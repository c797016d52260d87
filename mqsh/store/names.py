"""Object names -> file names, reversibly, never escaping their folder.

MQ names may hold '/' and '%' (and '.' which MQ itself maps to '!'). Every
character outside [A-Za-z0-9_] is written as '!' for '.', or '%XX' (its code in
hex) otherwise, so "QL.A" is stored as "QL!A" and "A/B%C" as "A%2FB%25C". The
result never contains a path separator and is never "." or "..".

A subscription name may be 10,240 characters long, far more than a file name
can hold, so a name whose file name would pass LONGEST is written as the start
of its file name, '~' and the SHA-256 of the name. Such a file name is not
reversed (from_file_name gives None): the object's own file and the catalog
hold its name.
"""

from __future__ import annotations

import hashlib
import string

_PLAIN = set(string.ascii_letters + string.digits + "_")
LONGEST = 200  # characters: room left for the ".tmp" of an atomic write within a 255-byte file name
HASHED = "~"  # never in a reversible file name, where '~' would be %7E


def to_file_name(name: str) -> str:
    if not name:
        raise ValueError("an object name cannot be empty")
    out = []
    for char in name:
        if char in _PLAIN:
            out.append(char)
        elif char == ".":
            out.append("!")
        else:
            out.append("".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass")))
    file_name = "".join(out)
    if len(file_name) <= LONGEST:
        return file_name
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()
    return file_name[:LONGEST - len(HASHED) - len(digest)] + HASHED + digest


def from_file_name(file_name: str) -> str | None:
    """The name to_file_name wrote as file_name; None for a long name's hashed file name."""
    if HASHED in file_name:
        return None
    data = bytearray()
    index = 0
    while index < len(file_name):
        char = file_name[index]
        if char == "!":
            data += b"."
            index += 1
        elif char == "%":
            data.append(int(file_name[index + 1:index + 3], 16))
            index += 3
        else:
            data += char.encode("utf-8")
            index += 1
    return data.decode("utf-8")
