"""Validation against the catalogue: synonyms, flags, repeats, unknown words."""

from __future__ import annotations

import pytest

from mqsh.language.catalogue import load
from mqsh.language.validate import MqscSyntaxError, parse_command


def check(text):
    return parse_command(text, load())


def test_synonyms_resolve():
    command = check("DEF QL(A) MAXDEPTH(10) NOSHARE")
    assert (command.verb, command.target, command.name) == ("DEFINE", "QLOCAL", "A")
    assert command.params == {"MAXDEPTH": 10, "SHARE": False}


@pytest.mark.parametrize("text, segment", [
    ("DEFI QL(A)", "DEFI"),
    ("DEFINE QL(A) REPLACE NOREPLACE", "DEFINE QL(A) REPLACE NOREPLACE"),
    ("DEFINE QL(A) MAXDEPTH(1) MAXDEPTH(2)", "DEFINE QL(A) MAXDEPTH(1) MAXDEPTH(2)"),
    ("DEFINE QL(A) NOSUCH(1)", "DEFINE QL(A) NOSUCH"),
    ("DEFINE QL(A) MAXDEPTH(x)", "DEFINE QL(A) MAXDEPTH(x)"),
])
def test_errors_quote_the_segment_up_to_the_fault(text, segment):
    with pytest.raises(MqscSyntaxError) as error:
        check(text)
    assert error.value.segment == segment


def test_display_selectors_and_all():
    command = check("dis ql(*) maxdepth descr all")
    assert command.selectors == ["MAXDEPTH", "DESCR"] and command.flag("ALL")
