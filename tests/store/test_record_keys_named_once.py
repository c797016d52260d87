"""Every key a record, a structure's list entry or a columnar copy keeps is spelled once, in
mqsh/store/records.py: any other module reads it by its name there.

A scan of mqsh/ finds a key written as a literal where a key is read or written: a subscript,
get(), `in`, a dict's key, a column named to Arrow or Spark (col, select, group_by, schemas, ...),
and a column named in SQL text. A few of the words are also other documents' own keys (the
control file's, a transmission header's, an object file's); those are looked for only where a
column is named, and two (key, member) are other tables' own columns too, and not looked for.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from mqsh.store import records

PACKAGE = Path(__file__).resolve().parents[2] / "mqsh"
DEFINITIONS = PACKAGE / "store" / "records.py"

# Words another document keys its own fields with, beside a record's: looked for where a column is named.
OTHER_DOCUMENTS = {
    records.QUEUE: "a transmission header's queue (mqsh.model.network.transfer)",
    records.LSN: "an object file's, the recovery ledger's and the log start's LSN",
    records.RESTART: "the control file's restart point",
    records.UNITS: "the control file's units of work",
    records.MEDIA: "the control file's media recovery records",
    records.ENTRY_STATE: "the control file's state",
    records.BODY: "a cluster command message's content, in its transmission header",
    records.STRUCTURE: "a shared message data set's header's structure (mqsh.model.qsg.datasets)",
}
# Words other tables name their own columns with: not looked for at all.
OTHER_COLUMNS = {
    records.OBJECT_KEY_COLUMN: "the cluster audit's record number",
    records.HOLDER: "the member a structure's recovery reads a record of",
}


def record_keys() -> set[str]:
    """Every key records.py names: the records' fields, the kind and LSN, a list entry's columns
    and the columnar copies' own columns (not their summary's keys: count, first, newest and
    objects are words every other document uses)."""
    fields = {spec.key for cls in records.KINDS.values() for _name, spec in cls.FIELDS}
    return (
        fields
        | {records.KIND, records.LSN, records.DOCUMENT_PUT_TIME, *records.LIST_ENTRY_COLUMNS}
        | {
            records.BODY,
            records.OBJECT_KEY_COLUMN,
            records.OUTCOME,
            records.WHOLE,
        }
    )


# Calls whose string arguments (or the strings in the lists and tuples passed) name columns.
COLUMN_CALLS = {
    "col",
    "column",
    "alias",
    "select",
    "drop",
    "drop_columns",
    "group_by",
    "groupBy",
    "join",
    "sort_by",
    "orderBy",
    "aggregate",
    "rename_columns",
    "append_column",
    "add_column",
    "set_column",
    "field",
    "get_field_index",
    "withColumn",
    "struct",
    "schema",
    "read_table",
    "isNotNull",
}
SQL = re.compile(
    r"\b(SELECT|UPDATE|DELETE FROM|INSERT INTO|CREATE TABLE|CREATE INDEX|WHERE|ORDER BY|GROUP BY)\b"
)
SQL_NOISE = re.compile(r"--[^\n]*|/\*.*?\*/|'[^']*'", re.DOTALL)
SQL_PLACEHOLDER = re.compile(r"\{[^}]*\}")  # a relation or a part filled in later
# A relation's alias (FROM x a, JOIN x a, a derived table's "(...) a") or a result's (AS a).
SQL_ALIASES = [
    re.compile(r"\b(?:FROM|JOIN)\s+(?:\w+\s+)?(\w+)"),
    re.compile(r"\)\s*(\w+)"),
    re.compile(r"\bAS\s+(\w+)"),
]
SQL_WORD = re.compile(r"(?<![\w.:])[A-Za-z_]\w*(?![\w.])|(?<=\.)[A-Za-z_]\w*(?![\w.])")


def _strings_in(node: ast.AST) -> list[ast.Constant]:
    """The string constants of an argument: itself, or those of the lists, tuples and dicts it
    displays (not those of the calls inside it, which are looked at on their own)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return [found for element in node.elts for found in _strings_in(element)]
    if isinstance(node, ast.Starred):
        return _strings_in(node.value)
    return []


def _sql_words(text: str) -> set[str]:
    """The column names SQL text spells: not its comments, quoted values, placeholders, parameters
    (:name) or table aliases."""
    if not SQL.search(text):
        return set()
    plain = SQL_PLACEHOLDER.sub(" placeholder ", SQL_NOISE.sub(" ", text))
    aliases = {alias for pattern in SQL_ALIASES for alias in pattern.findall(plain)}
    return {word for word in SQL_WORD.findall(plain) if word not in aliases}


def _docstrings(tree: ast.AST) -> set[int]:
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def spelled_keys(source: str, keys: set[str], column_only: set[str]) -> list[tuple[int, str]]:
    """(line, key) of each key source spells as a literal where a key is read or written; those in
    column_only only where a column is named (Arrow, Spark, SQL)."""
    tree = ast.parse(source)
    anywhere = keys - column_only
    found: list[tuple[int, str]] = []

    def note(node: ast.AST, allowed: set[str]) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in allowed:
            found.append((node.lineno, node.value))

    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            note(node.slice, anywhere)
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if key is not None:
                    note(key, anywhere)
        elif isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In | ast.NotIn):
            note(node.left, anywhere)
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("get", "pop", "setdefault") and node.args:
                note(node.args[0], anywhere)
            elif name in COLUMN_CALLS:
                for argument in [*node.args, *(keyword.value for keyword in node.keywords)]:
                    for constant in _strings_in(argument):
                        note(constant, keys)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found += [(node.lineno, word) for word in sorted(_sql_words(node.value) & keys)]
    return sorted(set(found))


def test_no_module_but_records_spells_a_key():
    keys = record_keys() - set(OTHER_COLUMNS)
    spelled = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {key!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != DEFINITIONS
        for line, key in spelled_keys(path.read_text(), keys, set(OTHER_DOCUMENTS))
    ]
    assert spelled == [], "read these keys by their names in mqsh/store/records.py:\n" + "\n".join(spelled)


@pytest.mark.parametrize(
    "planted",
    [
        'table["sq"]',
        'record.get("e")',
        '"cfs" in record',
        '{"p": 1}',
        'F.col("u")',
        'table.select(["lsn", "t"])',
        'pa.schema([("b", pa.int64())])',
        'table.group_by(["tm"]).aggregate([("s", "max")])',
        'db.execute("SELECT e, b, n FROM entry WHERE o = ?", (owner,))',
        'f"SELECT {columns} FROM {{records}} mv WHERE mv.cf = :cf"',
    ],
)
def test_a_key_spelled_as_a_literal_is_found(planted):
    keys = record_keys() - set(OTHER_COLUMNS)
    assert spelled_keys(f"def reads(table, record, db, owner, columns):\n    {planted}\n", keys, set()) != []


@pytest.mark.parametrize(
    "innocent",
    [
        '"""A docstring that names q, e and SELECT e FROM entry WHERE o = ?."""',
        'open(path, "a")',
        "f\"{count} unit{'s' if count > 1 else ''}\"",
        'header["q"]',  # a transmission header's queue: another document's key
        'control.get("media", {})',
        'spark.sql("SELECT b.log FROM {base} b JOIN {epochs} e ON b.log = e.log WHERE e.base > :cf")',
        'spark.sql("SELECT count(*) AS n FROM {records} r LEFT JOIN counts c ON r.key = c.key WHERE c.n > 1")',
        'table.sort_by([("log", "ascending")])',
    ],
)
def test_other_strings_are_not_taken_for_keys(innocent):
    keys = record_keys() - set(OTHER_COLUMNS)
    assert spelled_keys(f"{innocent}\n", keys, set(OTHER_DOCUMENTS)) == []
