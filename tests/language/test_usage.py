"""AMQ8427I usage diagrams and the AMQ8426 command list, derived from the catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest

from mqsh.language.catalogue import load
from mqsh.language.usage import two_columns, usage_lines, variant_named, verb_list

COLLECTED = (
    Path(__file__).resolve().parents[2].parent
    / "shared"
    / "corpus"
    / "transcripts"
    / "collected-transcripts.txt"
)

# runmqsc's answer to  ALTER CHANNEL('DEV.APP.SVRCONN') CHLTYPE(SVRCONN) SSLCIPH()
# (transcript T3, MQ 9.x, as far as the source shows it; trailing blanks matter).
T3 = [
    "  ALTER CHANNEL( channel_name )",
    "   CHLTYPE( SVRCONN )                                                         ",
    "   [ CERTLABL( string ) ]                  [ COMPHDR( NONE | SYSTEM ) ]        ",
    "   [ COMPMSG( NONE | RLE | ZLIBFAST | ZLIBHIGH | ANY ) ]                       ",
    "   [ DESCR( string ) ]                     [ DISCINT( integer ) ]              ",
    "   [ HBINT( integer ) ]                                                        ",
    "   [ KAINT( AUTO | integer ) ]                                                 ",
    "   [ MAXINST( integer ) ]                  [ MAXINSTC( integer ) ]             ",
    "   [ MAXMSGL( integer ) ]                  [ MCAUSER( string ) ]               ",
    "   [ MONCHL( QMGR | OFF | LOW | MEDIUM | HIGH ) ]                              ",
    "   [ RCVDATA( string ) ]                   [ RCVEXIT( string ) ]               ",
]
T3_CUT = "   [ SCYDATA("  # where the source excerpt stops


@pytest.fixture(scope="module")
def catalogue():
    return load()


def test_alter_channel_svrconn_matches_t3(catalogue):
    lines = usage_lines(catalogue, "ALTER", "CHANNEL", "SVRCONN")
    assert lines[: len(T3)] == T3
    assert lines[len(T3)].startswith(T3_CUT)


@pytest.mark.skipif(not COLLECTED.is_file(), reason="../shared/corpus is not beside the repository")
def test_t3_as_stored_in_the_corpus(catalogue):
    text = COLLECTED.read_text(encoding="utf-8")
    block = text[text.index("AMQ8427I: Valid syntax for the MQSC command:") :].splitlines()[2:]
    shown = block[: block.index(T3_CUT)]
    assert shown == T3
    assert usage_lines(catalogue, "ALTER", "CHANNEL", "SVRCONN")[: len(shown)] == shown


def test_the_session_shows_t3_for_the_command_that_gave_it(session):
    """The command does not even parse (SSLCIPH()), yet its usage is the SVRCONN channel's."""
    text = session.render(session.execute("ALTER CHANNEL('DEV.APP.SVRCONN') CHLTYPE(SVRCONN) SSLCIPH()"))
    lines = text.splitlines()
    start = lines.index("AMQ8427I: Valid syntax for the MQSC command:") + 2
    assert lines[start : start + len(T3)] == T3


def test_the_variant_a_command_names(catalogue):
    channel = catalogue.objects["CHANNEL"]
    assert variant_named(channel, "alter chl(x) chltype( 'svrconn' ) x()") == "SVRCONN"
    assert variant_named(channel, "ALTER CHANNEL(X) CHLTYPE(NOPE)") is None
    assert variant_named(channel, "ALTER CHANNEL(X)") is None
    assert variant_named(catalogue.objects["QLOCAL"], "ALTER QLOCAL(X) CHLTYPE(SDR)") is None


def test_usage_lines_layout_rules(catalogue):
    lines = usage_lines(catalogue, "DEFINE", "QLOCAL")
    assert lines[0] == "  DEFINE QLOCAL( queue_name )"
    assert all(len(line) == 79 for line in lines[1:] if len(line) <= 79)
    paired = 0
    for line in lines[1:]:
        left, right = line[3:43].strip(), line[43:].strip()
        if line[42] == " " and left.endswith("]") and right.startswith("["):
            # paired items share their first letter and both fit
            assert left[2] == right[2] and len(left) < 38 and len(right) < 36, line
            paired += 1
    assert paired >= 5
    text = "\n".join(lines)
    assert "[ SHARE | NOSHARE ]" in text and "[ TRIGGER | NOTRIGGER ]" in text
    assert "[ LIKE( string ) ]" in text and "[ REPLACE | NOREPLACE ]" in text
    assert "[ MAXFSIZE( DEFAULT | integer ) ]" in text
    assert "CURDEPTH" not in text  # read-only
    assert "QSGDISP" not in text and "CMDSCOPE" not in text  # z/OS only


def test_required_parameters_have_no_brackets(catalogue):
    lines = usage_lines(catalogue, "LAB", "PUT")
    assert lines[0] == "  LAB PUT"
    assert lines[1] == "   QUEUE( string )".ljust(78)
    assert "   [ COUNT( integer ) ]".ljust(79) in lines
    assert any("[ PERSISTENT | NONPERSISTENT ]" in line for line in lines)
    assert usage_lines(catalogue, "RESET", "QMGR")[1].startswith("   TYPE( ADVANCELOG | ARCHLOG | REDUCELOG")


def test_without_a_variant_the_discriminator_lists_every_value(catalogue):
    lines = usage_lines(catalogue, "DEFINE", "CHANNEL")
    assert lines[1].startswith("   CHLTYPE( SDR | SVR | RCVR | RQSTR | CLNTCONN | SVRCONN")
    assert any("[ XMITQ( string ) ]" in line for line in lines)  # SDR/SVR
    assert any("[ SHARECNV( integer ) ]" in line for line in lines)  # SVRCONN


def test_display_usage_lists_selectors(catalogue):
    text = "\n".join(usage_lines(catalogue, "DISPLAY", "QMSTATUS"))
    assert text.startswith("  DISPLAY QMSTATUS\n")
    assert "[ LOG ]" in text and "[ CURRLOG( string ) ]" in text and "[ ALL ]" in text


def test_verb_without_target_lists_its_targets(catalogue):
    (line,) = usage_lines(catalogue, "PING", None)
    assert line == "  PING QMGR | CHANNEL"


def test_two_columns_keeps_the_display_layout():
    # DISPLAY output pairs any two items that fit (transcript T4).
    assert two_columns(["QUEUE(QL.A)", "TYPE(QLOCAL)"]) == [
        "   QUEUE(QL.A)                             TYPE(QLOCAL)"
    ]
    assert two_columns(["QUEUE(SYSTEM.ADMIN.ACCOUNTING.QUEUE)", "TYPE(QLOCAL)"]) == [
        "   QUEUE(SYSTEM.ADMIN.ACCOUNTING.QUEUE)    TYPE(QLOCAL)"
    ]
    assert two_columns(["QUEUE(SYSTEM.CLUSTER.REPOSITORY.QUEUE)", "TYPE(QLOCAL)"]) == [
        "   QUEUE(SYSTEM.CLUSTER.REPOSITORY.QUEUE)",
        "   TYPE(QLOCAL)",
    ]


def test_amq8426_lists_the_mqsc_verbs(catalogue):
    lines = verb_list(catalogue)
    words = [line.strip() for line in lines]
    for verb in (
        "ALTER",
        "CLEAR",
        "DEFINE",
        "DELETE",
        "DISPLAY",
        "END",
        "PING",
        "REFRESH",
        "RESET",
        "RESOLVE",
        "RESUME",
        "SET",
        "START",
        "STOP",
        "SUSPEND",
        "RECOVER",
        "BACKUP",
    ):
        assert verb in words
    assert "LAB" not in words  # lab controls are the shell's, not MQSC
    assert words == sorted(words)
    assert all(line.startswith("    ") for line in lines)


def test_the_discriminator_is_shown_only_where_the_verb_takes_it(catalogue):
    assert usage_lines(catalogue, "STOP", "CONN") == ["  STOP CONN( conn_name )"]
    assert usage_lines(catalogue, "DISPLAY", "CONN")[1].strip() == "TYPE( CONN | HANDLE | ALL | * )"
    assert usage_lines(catalogue, "STOP", "CHANNEL")[1].strip().startswith("CHLTYPE( SDR |")
