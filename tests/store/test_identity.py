"""The user id mqsh runs as."""

from __future__ import annotations

import getpass
import os

from mqsh.store import identity


def test_the_login_name_or_the_numeric_id_when_there_is_none(monkeypatch):
    assert identity.process_user() == getpass.getuser()

    def nameless() -> str:
        raise KeyError("uid not found")

    monkeypatch.setattr(identity.getpass, "getuser", nameless)
    assert identity.process_user() == str(os.getuid())
