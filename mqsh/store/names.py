"""Object names -> file names, reversibly, never escaping their folder.

MQ names may hold '/' and '%' (and '.' which MQ itself maps to '!'). Every
character outside [A-Za-z0-9_] is written as '!' for '.', or '%XX' (its code in
hex) otherwise, so "QL.A" is stored as "QL!A" and "A/B%C" as "A%2FB%25C". The
result never contains a path separator and is never "." or "..".
"""

from __future__ import annotations

import string

_PLAIN = set(string.ascii_letters + string.digits + "_")


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
            out.append("".join(f"%{byte:02X}" for byte in char.encode("utf-8")))
    return "".join(out)


def from_file_name(file_name: str) -> str:
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
