"""MqshCompleter: the words offered for partial commands, and where they go."""

from __future__ import annotations

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from mqsh.shell.completer import MqshCompleter, SessionNames, name_matches
from mqsh.shell.vocabulary import Vocabulary
from tests.shell.fakes import LONG_COMMANDS, FakeSession, recreate_parser

QUEUES = ["Q1", "Q2", "SYSTEM.DEFAULT.LOCAL.QUEUE", "app.lower"]


@pytest.fixture
def completer(vocabulary):
    session = FakeSession(
        {"QLOCAL": QUEUES, "QUEUE": [*QUEUES, "QA1"], "CHANNEL": ["TO.QM2"]}, ["QM1", "QM2"]
    )
    return MqshCompleter(vocabulary, SessionNames(session))


def texts(completer, text):
    return [completion.text for completion in completer.completions_for(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("DE", {"DEFINE", "DEF", "DELETE"}),
        ("def", {"define", "def"}),
        ("DEFINE Q", {"QLOCAL", "QL", "QMODEL", "QM", "QALIAS", "QA", "QREMOTE", "QR"}),
        ("DIS QM", {"QMGR", "QMSTATUS", "QMODEL", "QM"}),
        ("DEFINE QLOCAL(Q1) MAXD", {"MAXDEPTH"}),
        ("DEFINE QLOCAL(Q1) NOS", {"NOSHARE"}),
        ("DEFINE QLOCAL(Q1) SHARE NOS", set()),
        ("DEFINE QLOCAL(Q1) MAXDEPTH(5) MAXD", set()),
        ("DEFINE CHANNEL(X) CHLTYPE(SDR) CONN", {"CONNAME"}),
        ("def chl(ZZ) ", {"CHLTYPE"}),  # CHLTYPE must come straight after the name: nothing else is offered
        ("ALTER CHANNEL(ZZ) ", {"CHLTYPE"}),
        ("DEFINE CHANNEL(ZZ) A", set()),
        ("DIS CHL(ZZ) CHLT", {"CHLTYPE"}),  # DISPLAY takes its selectors in any order
        ("DEFINE CHANNEL(X) CHLTYPE(SVRCONN) CONN", set()),
        ("DEFINE CHANNEL(X) CHLTYPE(SDR) X", {"XMITQ"}),
        ("ALTER QMGR IMGR", {"IMGRCOVO", "IMGRCOVQ"}),
        ("DEFINE QLOCAL(Q1) DEFPSIST(", {"NO", "YES"}),
        ("DEFINE QLOCAL(Q1) PUT(D", {"DISABLED"}),
        ("SET AUTHREC AUTHADD(PUT,G", {"GET"}),
        ("SET AUTHREC AUTHADD(GET,G", set()),
        ("DIS QL(*) WH", {"WHERE"}),
        ("DIS QL(*) WHERE(CURD", {"CURDEPTH"}),
        ("DIS QL(*) WHERE(CURDEPTH G", {"GT", "GE"}),
        ("dis qs(*) where(T", {"TID"}),  # TYPE is no filter keyword of DISPLAY QSTATUS
        ("dis qs(*) where(Q", {"QUEUE", "QMURID"}),  # nor QTIME
        ("DIS QL(*) WHERE(QDPH", set()),  # QDPHIEV: DISPLAY QUEUE may not filter on it
        ("LAB P", {"PUT"}),
        ("LAB C", {"COMMIT", "CLOCK", "CRASH", "CLOSE", "COPY"}),
        ("LAB CLOCK A", {"ADVANCE"}),
        ("LAB MA", {"MAP"}),
        ("LAB MAP CLUSTER(DEMO) S", {"SVG"}),
        ("LAB EXPLAIN CL", {"CLUSTER"}),
        ("LAB PUT QUEUE(Q1) NON", {"NONPERSISTENT"}),
        ("LAB PUT QUEUE(QA", {"QA1"}),
        ("LAB USE QMGR(", {"QM1", "QM2"}),
        ("DEFINE CHANNEL(X) CHLTYPE(SDR) XMITQ(Q", {"Q1", "Q2", "QA1"}),  # values that name an object
        ("DEFINE QLOCAL(A) INITQ(SYS", {"SYSTEM.DEFAULT.LOCAL.QUEUE"}),
        ("DEFINE QLOCAL(A) BOQNAME(Q", {"Q1", "Q2", "QA1"}),
        ("DEFINE QREMOTE(A) RQMNAME(", {"QM1", "QM2"}),
        ("ALTER QMGR DEADQ(QA", {"QA1"}),
        ("DEFINE QLOCAL(A) DESCR(Q", set()),  # a plain string: nothing to offer
        ("crt", {"crtmqm"}),
        ("crtmqm -l", {"-lc", "-ll", "-lr", "-lf", "-lp", "-ls"}),
        ("crtmqm -lc -l", {"-lf", "-lp", "-ls"}),
        ("endmqm -i -", {"-r"}),
        (
            "strmqm ",
            {
                "QM1",
                "QM2",
                "-c",
                "-r",
                "-a",
                "-x",
                "-e",
                "-f",
                "-si",
                "-ss",
                "-d",
                "-z",
                "-ns",
                "--verify-log",
                "--ignore-missing-log",
            },
        ),
        ("rcrmqobj -t ql", {"ql", "qlocal"}),
        ("rcdmqimg -", {"-m", "-z", "-l", "-t"}),
        ("strmqm -ns Q", {"QM1", "QM2"}),
        ("dspmq -m ", {"QM1", "QM2"}),
        (
            "\\",
            {"\\?", "\\help", "\\h", "\\format", "\\q", "\\i", "\\o", "\\pager", "\\timing", "\\echo", "\\e"},
        ),
        ("\\ti", {"\\timing"}),
        ("\\pager ", {"on", "off"}),  # COMMAND stands for a command line: nothing to offer
        ("\\timing o", {"on", "off"}),
        ("\\echo o", {"on", "off"}),
        ("he", {"help"}),
        ("\\format ", {"mqsc", "table", "json", "csv"}),
        ("\\format t", {"table"}),
    ],
)
def test_words_offered(completer, text, expected):
    assert set(texts(completer, text)) == expected


def test_values_from_an_options_choices(vocabulary):
    with_choices = Vocabulary(
        vocabulary.catalogue, {"rcrmqobj": recreate_parser()}, vocabulary.shell_commands
    )
    completer = MqshCompleter(with_choices, SessionNames(FakeSession()))
    assert texts(completer, "rcrmqobj -t q") == ["qlocal"]


def test_what_must_be_given_comes_first(completer):
    assert texts(completer, "DEFINE CHANNEL(X) ")[0] == "CHLTYPE"
    assert texts(completer, "RESET QMGR ")[0] == "TYPE"


def test_zos_only_parameters_come_last(completer):
    offered = texts(completer, "DEFINE QLOCAL(Q1) ")
    assert offered.index("QSGDISP") > offered.index("USAGE")


def test_a_verb_may_read_a_keyword_its_own_way(completer):
    assert "ADVANCELOG" in texts(completer, "RESET QMGR TYPE(")
    assert "ADVANCELOG" not in texts(completer, "DIS QUEUE(*) TYPE(")


def test_attribute_synonyms_count_as_given(completer):
    assert "TARGET" not in texts(completer, "DEFINE QALIAS(A) TARGQ(Q1) TAR")


def test_object_names_of_the_current_queue_manager(completer):
    assert texts(completer, "DEF QL(") == ["Q1", "Q2", "SYSTEM.DEFAULT.LOCAL.QUEUE", "'app.lower'"]
    assert texts(completer, "DEF QL(q") == ["Q1", "Q2"]
    assert texts(completer, "ALTER CHL(T") == ["TO.QM2"]


def test_generic_names_for_display(completer):
    assert texts(completer, "DIS Q(QA") == ["QA1", "QA*"]
    assert "*" in texts(completer, "DIS QS(")


def test_names_containing_the_typed_text_follow_the_prefix_matches():
    completions = name_matches(["DEFAULT.Q", "Q.DEFAULT", "OTHER"], "DEF")
    assert [completion.text for completion in completions] == ["DEFAULT.Q", "Q.DEFAULT"]


def test_quoted_names_keep_their_case():
    completions = name_matches(["app.lower", "APP.UPPER"], "'app")
    assert [completion.text for completion in completions] == ["'app.lower'"]
    assert completions[0].start_position == -4


def test_replaces_the_word_being_typed(completer):
    [completion] = completer.completions_for("DEFINE QLOCAL(Q1) MAXD")
    assert (completion.text, completion.start_position) == ("MAXDEPTH", -4)


def test_continued_command(completer):
    [completion] = completer.completions_for("DEFINE QLOCAL(Q1) +\n   MAXD")
    assert (completion.text, completion.start_position) == ("MAXDEPTH", -4)
    assert set(texts(completer, "DEFINE +\n  QL")) == {"QLOCAL", "QL"}


def test_no_completion_inside_a_comment_line(completer):
    assert texts(completer, "* DEF") == []


def test_a_word_split_by_continuation_is_left_alone(completer):
    assert texts(completer, "DEFINE QLOCAL(Q1) MAX-\nDE") == []


def test_a_continuation_line_opens_no_menu_before_anything_is_typed(completer):
    def offered(text: str, requested: bool) -> list[str]:
        document = Document(text)
        return [
            item.text
            for item in completer.get_completions(document, CompleteEvent(completion_requested=requested))
        ]

    assert offered("DEFINE QLOCAL(Q1) +\n", requested=False) == []  # while typing: nothing pops up
    assert "MAXDEPTH" in offered("DEFINE QLOCAL(Q1) +\n", requested=True)  # Tab still offers
    assert offered("DEFINE QLOCAL(Q1) +\nMAXD", requested=False) == ["MAXDEPTH"]  # a word started


def test_descriptions_come_from_the_catalogue(completer):
    [completion] = completer.completions_for("DEFINE QLOCAL(Q1) MAXDE")
    assert completion.display_meta_text == "Maximum number of messages on the queue"


def test_a_failing_session_costs_only_the_completions(vocabulary):
    class BrokenSession(FakeSession):
        def object_names(self, target):
            raise RuntimeError("model unavailable")

    completer = MqshCompleter(vocabulary, SessionNames(BrokenSession()))
    document = Document("DEF QL(")
    assert list(completer.get_completions(document, CompleteEvent(completion_requested=True))) == []


def test_names_are_not_read_while_a_command_runs(vocabulary):
    names = SessionNames(FakeSession({"QLOCAL": ["Q1"]}))
    with names.lock:
        assert names.object_names("QLOCAL") == []
    assert names.object_names("QLOCAL") == ["Q1"]


@pytest.mark.parametrize("command", LONG_COMMANDS)
def test_every_prefix_of_a_long_command(completer, command):
    for end in range(len(command) + 1):
        completer.completions_for(command[:end])


def test_rcdmqimg_and_rcrmqobj_complete_names_of_the_type_and_queue_manager_given(vocabulary):
    session = FakeSession(
        {"QLOCAL": ["Q1"], "QM2/QLOCAL": ["ORDERS.IN", "ORDERS.OUT"], "QM2/PROCESS": ["P1"]}
    )
    completer = MqshCompleter(vocabulary, SessionNames(session))
    assert texts(completer, "rcdmqimg -m QM2 -t qlocal ORD") == ["ORDERS.IN", "ORDERS.OUT"]
    assert texts(completer, "rcdmqimg -t ql ")[:1] == ["Q1"]  # the session's queue manager
    assert "P1" in texts(completer, "rcrmqobj -m QM2 -t process ")


def test_file_names_after_include_and_output(completer, tmp_path, monkeypatch):
    (tmp_path / "labs").mkdir()
    for name in ("labs/01-queues.mqsc", "labs/02-channels.mqsc", "labs/.hidden.mqsc", "notes.txt"):
        (tmp_path / name).write_text("")
    monkeypatch.chdir(tmp_path)
    assert texts(completer, "\\i la") == ["labs/"]
    assert texts(completer, "\\i labs/0") == ["labs/01-queues.mqsc", "labs/02-channels.mqsc"]
    assert texts(completer, "\\i labs/.h") == ["labs/.hidden.mqsc"]
    assert texts(completer, f"\\o {tmp_path}/no") == [f"{tmp_path}/notes.txt"]
    assert texts(completer, "\\o |") == []  # a command line: nothing to offer
    assert texts(completer, "\\i nothing/here") == []
