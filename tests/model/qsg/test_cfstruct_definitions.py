"""The rules a CF application structure's definition keeps."""

from __future__ import annotations

import pytest

from mqsh.model.qsg.cfstruct_definitions import NO_RULE, ValueRefusal, new_definition, refusal

DEFAULTS = {
    "CFLEVEL": 3,
    "RECOVER": "NO",
    "OFFLOAD": "DB2",
    "DSGROUP": "",
    "OFFLD1SZ": "32K",
    "OFFLD2SZ": "4K",
    "OFFLD3SZ": "0K",
}


def test_below_cflevel_5_no_offload_rule_applies():
    attributes = new_definition(DEFAULTS, {"CFLEVEL": 4})
    assert [attributes[f"OFFLD{n}SZ"] for n in (1, 2, 3)] == [NO_RULE] * 3
    attributes = new_definition(DEFAULTS, {"CFLEVEL": 5})
    assert [attributes[f"OFFLD{n}SZ"] for n in (1, 2, 3)] == ["32K", "4K", "0K"]


@pytest.mark.parametrize(
    "settings, wrong",
    [
        ({"CFLEVEL": 2, "RECOVER": "YES"}, ValueRefusal("RECOVER", "YES")),
        ({"CFLEVEL": 4, "DSEXPAND": "NO"}, ValueRefusal("DSEXPAND", "NO")),
        ({"CFLEVEL": 4, "CFCONLOS": "TOLERATE"}, ValueRefusal("CFCONLOS", "TOLERATE")),
        ({"CFLEVEL": 5, "OFFLOAD": "SMDS"}, ValueRefusal("OFFLOAD", "SMDS")),
        ({"CFLEVEL": 5, "DSGROUP": "A.*.B.*"}, ValueRefusal("DSGROUP", "A.*.B.*")),
        ({"CFLEVEL": 5, "OFFLD2SZ": "4M"}, ValueRefusal("OFFLD2SZ", "4M")),
        ({"CFLEVEL": 3, "RECOVER": "YES"}, None),
        ({"CFLEVEL": 5, "OFFLOAD": "SMDS", "DSGROUP": "MQ.*.APP1"}, None),
        ({"CFLEVEL": 5, "OFFLD1SZ": "64K"}, None),
    ],
)
def test_refusals(settings, wrong):
    assert refusal("APP1", new_definition(DEFAULTS, settings), settings) == wrong


def test_an_offload_keyword_kept_from_cflevel_5_does_not_block_a_lower_level():
    # Lowering CFLEVEL leaves the stored offload settings; only naming them again is refused.
    attributes = {**new_definition(DEFAULTS, {"CFLEVEL": 5, "DSBUFS": 200}), "CFLEVEL": 4}
    assert refusal("APP1", attributes, {"CFLEVEL": 4}) is None


@pytest.mark.parametrize("name", ["1APP", "APP_1", "app1", "ABCDEFGHIJKLM"])
def test_names_start_with_a_letter_and_hold_letters_and_digits(name):
    assert refusal(name, new_definition(DEFAULTS, {}), {}) == ValueRefusal("CFSTRUCT", name)
