"""The catalogue against real MQSC: runmqsc's DISPLAY output and echoed commands, and corpus scripts.

These checks read ../shared/corpus (real MQSC scripts and runmqsc output) in place, beside the
repository; they are skipped when that folder is absent.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mqsh.language.catalogue import Catalogue, ObjectSpec
from mqsh.language.lines import split_commands
from mqsh.language.parser import parse
from mqsh.language.validate import MqscSyntaxError, parse_command

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
SCRIPTS = SHARED / "corpus" / "mqsc"
TRANSCRIPTS = SHARED / "corpus" / "transcripts"
COLLECTED = TRANSCRIPTS / "collected-transcripts.txt"

SHELL_WORDS = {"END", "EXIT", "QUIT"}  # runmqsc's own words, not MQSC commands

needs_shared = pytest.mark.skipif(
    not SCRIPTS.is_dir(), reason="../shared/corpus is not beside the repository"
)


# ------------------------------------------------------- real runmqsc output


def _items(line: str) -> list[tuple[str, str | None]]:
    """KEY(value) and bare KEY items of one DISPLAY line (values may nest parentheses)."""
    items, index = [], 0
    while index < len(line):
        if line[index] == " ":
            index += 1
            continue
        match = re.match(r"[A-Z][A-Z0-9]*", line[index:])
        if not match:
            break
        name = match.group(0)
        index += len(name)
        value = None
        if index < len(line) and line[index] == "(":
            depth, end = 0, index
            while end < len(line):
                depth += {"(": 1, ")": -1}.get(line[end], 0)
                if depth == 0:
                    break
                end += 1
            value, index = line[index + 1 : end], end + 1
        items.append((name, value))
    return items


def display_blocks(text: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """(message id, items) for every AMQnnnn header followed by indented attribute lines."""
    blocks: list[tuple[str, list[tuple[str, str | None]]]] = []
    current: list[tuple[str, str | None]] | None = None
    for line in text.splitlines():
        header = re.match(r"^(AMQ\d{4})[A-Z]?: ", line)
        if header:
            current = []
            blocks.append((header.group(1), current))
        elif current is not None and line.startswith("   ") and line.strip():
            if not line.startswith("        ,"):  # continuation of a list value (NAMES)
                current.extend(_items(line[3:]))
        else:
            current = None
    return [(msgid, items) for msgid, items in blocks if items]


def _display_objects(catalogue: Catalogue) -> dict[str, list[ObjectSpec]]:
    table: dict[str, list[ObjectSpec]] = {}
    for obj in catalogue.objects.values():
        message = obj.message("display")
        if message is not None:
            table.setdefault(message.id[:7], []).append(obj)
    return table


def _shown_order(
    catalogue: Catalogue, obj: ObjectSpec, items
) -> tuple[ObjectSpec, tuple[str, ...], list[str]]:
    values = dict(items)
    if obj.kind == "family" and values.get("TYPE") in catalogue.objects:
        obj = catalogue.objects[values["TYPE"]]
    if obj.discriminator and values.get(obj.discriminator) in obj.variants:
        order = obj.variants[values[obj.discriminator]].attributes
    else:
        order = tuple(obj.all_attributes())
    names = [catalogue.positive_of(name) or name for name, _ in items]
    return obj, order, names


def _is_subsequence(names: list[str], order: tuple[str, ...]) -> bool:
    position = iter(order)
    return all(name in position for name in names)


def _transcript_files() -> list[Path]:
    return sorted(TRANSCRIPTS.glob("*.txt")) if TRANSCRIPTS.is_dir() else []


@needs_shared
@pytest.mark.parametrize("path", _transcript_files(), ids=lambda path: path.name[:60])
def test_displays_in_real_output_match_the_catalogue(catalogue, path):
    """Every attribute runmqsc showed is known, and in the catalogue's DISPLAY order."""
    table = _display_objects(catalogue)
    checked = 0
    for msgid, items in display_blocks(path.read_text(encoding="utf-8", errors="replace")):
        candidates = table.get(msgid, [])
        names = {name for name, _ in items}
        candidates = [obj for obj in candidates if obj.name_attribute in names or not obj.takes_name]
        if not candidates:
            continue
        obj, order, shown = _shown_order(catalogue, candidates[0], items)
        unknown = [name for name in shown if name not in order]
        assert not unknown, f"{msgid} {obj.name}: {unknown}"
        assert _is_subsequence(shown, order), f"{msgid} {obj.name}: {shown} not in order {order}"
        checked += 1
    if not checked:
        pytest.skip("no DISPLAY output in this transcript")


ECHO = re.compile(r"^ *(\d*) : ?(.*)$")


def echoed_commands(text: str) -> list[tuple[str, list[str]]]:
    """(command text as runmqsc read it, the response lines that followed) from echo lines."""
    found: list[tuple[list[str], list[str]]] = []
    lines: list[str] | None = None
    for line in text.splitlines():
        echo = ECHO.match(line)
        if echo and echo.group(1):
            lines = [echo.group(2)]
            found.append((lines, []))
        elif echo and lines is not None and not found[-1][1]:
            lines.append(echo.group(2))
        elif lines is not None:
            found[-1][1].append(line)
            if len(found[-1][1]) == 2:
                lines = None
    commands = []
    for lines, response in found:
        for chunk in split_commands("\n".join(lines)):
            if chunk.is_command:
                commands.append((chunk.text, response))
    return commands


@needs_shared
@pytest.mark.parametrize("path", _transcript_files(), ids=lambda path: path.name[:60])
def test_commands_runmqsc_echoed_are_judged_as_runmqsc_judged_them(catalogue, path):
    """Commands in real output validate, unless runmqsc answered AMQ8405I; then the
    quoted segment is the same."""
    checked = 0
    for command, response in echoed_commands(path.read_text(encoding="utf-8", errors="replace")):
        if command.strip().upper() in SHELL_WORDS:
            continue
        checked += 1
        if response and re.match(r"AMQ8405I?:", response[0]):
            with pytest.raises(MqscSyntaxError) as error:
                parse_command(command, catalogue)
            assert error.value.segment == response[1]
        else:
            parse_command(command, catalogue)
    if not checked:
        pytest.skip("no echoed commands in this transcript")


def _transcript(number: int) -> str:
    text = COLLECTED.read_text(encoding="utf-8")
    start = text.index(f"TRANSCRIPT {number}\n")
    end = text.find("\nTRANSCRIPT ", start + 1)
    return text[start : end if end > 0 else len(text)]


@needs_shared
def test_display_qmgr_all_order_is_t1(catalogue):
    (_msgid, items), *_ = [block for block in display_blocks(_transcript(1)) if block[0] == "AMQ8408"]
    assert list(catalogue.objects["QMGR"].variant().attributes) == [name for name, _ in items]


@needs_shared
def test_display_qmstatus_all_keeps_t1_order(catalogue):
    (_msgid, items), *_ = [block for block in display_blocks(_transcript(1)) if block[0] == "AMQ8705"]
    order = catalogue.objects["QMSTATUS"].variant().attributes
    shown = [name for name, _ in items]
    assert _is_subsequence(shown, order)
    added = [name for name in order if name not in shown]
    assert added == ["ARCHLOG", "ARCHSZ", "CURRLOG", "MEDIALOG", "MEDIASZ", "QMFSENC", "RECLOG", "RECSZ"]


@needs_shared
def test_display_qmstatus_on_a_circular_log_shows_what_t1_shows(session):
    (_msgid, items), *_ = [block for block in display_blocks(_transcript(1)) if block[0] == "AMQ8705"]
    record = session.execute("DISPLAY QMSTATUS").responses[0]  # ALL, as no attribute is asked for
    shown = dict(record.attributes)
    assert list(shown) == [name for name, _ in items]
    fixed = ("TYPE", "STATUS", "AUTOCLUS", "DATFSSZ", "DATFSUSE", "GRPROLE", "LDAPCONN", "LOGTYPE", "STANDBY")
    assert {name: shown[name] for name in fixed} == {name: value for name, value in items if name in fixed}
    assert re.fullmatch(r"\d\d:\d\d:\d\d", shown["LOGSTRTI"]) and re.fullmatch(
        r"\d\d\.\d\d\.\d\d", shown["STARTTI"]
    )


@needs_shared
def test_display_qlocal_all_order_is_t4(catalogue):
    blocks = [items for msgid, items in display_blocks(_transcript(4)) if msgid == "AMQ8409"]
    full = max(blocks, key=len)
    shown = [catalogue.positive_of(name) or name for name, _ in full]
    order = catalogue.objects["QLOCAL"].variant().attributes
    assert [name for name in order if name in shown] == shown
    later = [name for name in order if name not in shown]
    assert later == ["CAPEXPRY", "CLCHNAME", "CUSTOM", "IMGRCOVQ", "MAXFSIZE", "STREAMQ", "STRMQOS"]
    defaults = catalogue.objects["QLOCAL"].variant().defaults
    for name, value in full:
        if name in ("QUEUE", "ALTDATE", "ALTTIME", "CRDATE", "CRTIME", "DESCR"):
            continue
        positive = catalogue.positive_of(name)
        if positive:
            assert defaults[positive] is False, name
        elif value is None:
            assert defaults[name] is True, name
        else:
            spec = catalogue.attribute(name, catalogue.objects["QLOCAL"])
            expected = int(value) if spec.type == "integer" and value.isdigit() else value.strip()
            assert defaults[name] == expected, name


# ------------------------------------------------------------ corpus scripts

# Scripts that carry template placeholders: they are not MQSC until a tool
# fills them in. Commands without placeholders are still checked.
TEMPLATES = {
    "IBMMQAutomation__dynamic-mqsc__dev__qm01__dynamic.mqsc": "$VAR",
    "IBMMQAutomation__dynamic-mqsc__uat__qm02__dynamic.mqsc": "$VAR",
    "TxMQ__ibm-mq-helm-chart__compose__mqexplorer-mqsc-template.sh.mqsc": "${...}",
    "ewiger__ibm-mq-mtls__create-client-ccdt.sh.mqsc": "${...}",
    "ibm-messaging__mq-container__incubating__mqadvanced-server-dev__10-dev.mqsc.tpl.mqsc": "{{ ... }}",
    "ibm-messaging__mq-uniform-clusters__demo__Docker__QMConfig__dockerVolume__UniCluster.mqsc": "+NAME+",
    "ibm-messaging__mq-uniform-clusters__demo__Linux__QMConfig__UniCluster.mqsc": "+NAME+",
    "ibm-messaging__mq-uniform-clusters__demo__Linux__showConns.sh__L44.mqsc": "$VAR",
    "ibm-messaging__mq-uniform-clusters__pubsub__simple-admin__QMConfig__UniCluster.mqsc": "+NAME+",
    "khongks__mq-pipeline__config__config.mqsc.tmpl.mqsc": "${...}",
}

PLACEHOLDERS = (
    ("{{ ... }}", re.compile(r"\{\{.*?\}\}")),
    ("${...}", re.compile(r"\$\{[^}]*\}")),
    ("<% ... %>", re.compile(r"<%.*?%>")),
    # $SYS is IBM MQ's own system topic prefix ('$SYS/MQ'), not a variable.
    ("$VAR", re.compile(r"\$(?!SYS\b)[A-Za-z_][A-Za-z0-9_]*")),
    # Inserts such as +QMNAME+ and +AUTOCL+ that the queue manager's automatic
    # configuration replaces; inside a service's command attributes they are
    # IBM MQ's own service inserts, filled in when the service starts.
    ("+NAME+", re.compile(r"\+[A-Z][A-Z_]*\+")),
)
SERVICE_TEXT = re.compile(
    r"\b(STARTCMD|STARTARG|STOPCMD|STOPARG|STDOUT|STDERR)\s*\((?:'[^']*'|[^()'])*\)", re.IGNORECASE
)

# Commands in the corpus that runmqsc itself would reject: (start of the
# command, where the quoted segment ends, why).
REJECTED = {
    "TxMQ__ibm-mq-helm-chart__mqstarters__ldapauth__openldap.mqsc": [
        (
            "DEFINE AUTHINFO(USE.LDAP)",
            "FAILEDDLAY",
            "FAILEDDLAY is not an AUTHINFO attribute (the failed-authentication delay is FAILDLAY)",
        ),
    ],
    "tsoyroma__321__mq__mq__linux__scripts__create_objects_lan.mqsc": [
        (
            "ALTER CHL CHLTYPE(SC.DEMO.LAN.DMZ)",
            "ALTER CHL",
            "the channel name is missing: CHL is written bare and the name was put in CHLTYPE",
        ),
    ],
}


def placeholders_in(command: str) -> list[str]:
    text = SERVICE_TEXT.sub("", command)
    return [label for label, pattern in PLACEHOLDERS if pattern.search(text)]


def unknown_keywords(catalogue: Catalogue, command: str) -> list[str]:
    """Keywords of a command that its verb and object type do not know (values unchecked)."""
    parsed = parse(command)
    verb = catalogue.verb(parsed.verb)
    obj = catalogue.object(parsed.items[0].keyword)
    known = set(verb.params_for(obj.name)) | set(obj.all_attributes()) | {obj.discriminator}
    words = [item.keyword for item in parsed.items[1:]] + ([parsed.where.keyword] if parsed.where else [])
    return [word for word in words if (catalogue.positive_of(word) or catalogue.canonical(word)) not in known]


def _scripts() -> list[Path]:
    return sorted(SCRIPTS.glob("*.mqsc")) if SCRIPTS.is_dir() else []


def _commands(path: Path) -> list[str]:
    chunks = split_commands(path.read_text(encoding="utf-8", errors="replace"))
    return [
        chunk.text for chunk in chunks if chunk.is_command and chunk.text.strip().upper() not in SHELL_WORDS
    ]


@needs_shared
def test_template_list_is_exactly_the_scripts_with_placeholders():
    found = {}
    for path in _scripts():
        labels = sorted({label for command in _commands(path) for label in placeholders_in(command)})
        if labels:
            found[path.name] = labels
    assert found == {name: [label] for name, label in TEMPLATES.items()}


@needs_shared
def test_rejected_commands_exist_in_the_corpus():
    for name, expectations in REJECTED.items():
        commands = _commands(SCRIPTS / name)
        for start, _, _ in expectations:
            assert any(command.startswith(start) for command in commands), (name, start)


@needs_shared
@pytest.mark.parametrize("path", _scripts(), ids=lambda path: path.name[:70])
def test_every_keyword_in_the_corpus_is_known(catalogue, path):
    """Every command parses and validates, except the ones runmqsc would reject too."""
    expected = REJECTED.get(path.name, [])
    templated = []
    for command in _commands(path):
        labels = placeholders_in(command)
        if labels:
            templated.append(f"{', '.join(labels)} in {command[:60]!r}")
            assert not unknown_keywords(catalogue, command), (command, unknown_keywords(catalogue, command))
            continue
        rejection = next((item for item in expected if command.startswith(item[0])), None)
        if rejection is not None:
            with pytest.raises(MqscSyntaxError) as error:
                parse_command(command, catalogue)
            assert error.value.segment.endswith(rejection[1]), (rejection[2], error.value.segment)
            continue
        try:
            parse_command(command, catalogue)
        except MqscSyntaxError as error:
            pytest.fail(f"{command!r} rejected at {error.segment[-40:]!r}: {error.reason}")
    if templated:
        more = f"; and {len(templated) - 3} more" if len(templated) > 3 else ""
        pytest.skip(
            f"template placeholders ({TEMPLATES.get(path.name)}), {len(templated)} command(s) not checked: "
            + "; ".join(templated[:3])
            + more
        )


@needs_shared
def test_attributes_commented_out_by_dmpmqcfg_are_known(catalogue):
    """dmpmqcfg writes read-only attributes as '*  NAME(value) +' lines inside each command."""
    dumps = [path for path in _scripts() if "dmpmqcfg" in path.read_text(encoding="utf-8", errors="replace")]
    assert dumps
    seen = 0
    for path in dumps:
        for chunk in split_commands(path.read_text(encoding="utf-8", errors="replace")):
            if not chunk.is_command:
                continue
            parsed = parse(chunk.text)
            obj = catalogue.object(parsed.items[0].keyword)
            values = {item.keyword: item.values for item in parsed.items}
            known: tuple[str, ...] | list[str] = obj.all_attributes()
            if obj.discriminator and values.get(obj.discriminator):
                known = obj.variants[values[obj.discriminator][0].text.upper()].attributes
            for line in chunk.lines:
                match = re.match(r"^\*\s+([A-Z][A-Z0-9]*)\(", line)
                if match:
                    seen += 1
                    assert match.group(1) in known, (path.name, obj.name, match.group(1))
    assert seen > 100
