"""help with a topic: verbs, objects and attributes from the catalogue, lab controls, control and shell commands."""

from __future__ import annotations

import pytest

from mqsh.commands.control.programs import CONTROL_COMMANDS
from mqsh.language.catalogue import load
from mqsh.shell.help import lines_for, value_text

CATALOGUE = load()


def help_for(text: str) -> list[str]:
    return lines_for(CATALOGUE, CONTROL_COMMANDS, text.split())


def test_help_alone_lists_every_verb_control_command_lab_control_and_shell_command():
    lines = help_for("")
    text = "\n".join(lines)
    assert all(verb in lines[1].split() for verb in CATALOGUE.verbs if verb != "LAB")
    assert all(f"  {name} " in text.lower() for name in CONTROL_COMMANDS)
    assert "LAB CLOCK" in text and "\\format" in text


def test_a_verb_and_object_give_the_syntax_and_every_attribute_with_its_description():
    lines = help_for("define qlocal")
    assert lines[0].startswith("DEFINE QLOCAL: Create an object - Local queue")
    assert lines[1].strip() == "DEFINE QLOCAL( queue_name )"
    attributes = lines[lines.index("Attributes:") + 1 :]
    obj = CATALOGUE.objects["QLOCAL"]
    described = {line.split()[0]: line.split(None, 1)[1] for line in attributes}
    assert described["MAXDEPTH"] == CATALOGUE.attribute("MAXDEPTH", obj).description
    assert "CURDEPTH" not in described  # read-only: DEFINE cannot set it
    assert "QSGDISP" not in described  # z/OS-only, as in the usage


@pytest.mark.parametrize(
    "text, first, takes",
    [
        ("help ALTER QMGR IMGRCOVQ", "ALTER QMGR IMGRCOVQ: ", "Takes YES | NO."),
        ("help DEFINE QLOCAL MAXDEPTH", "DEFINE QLOCAL MAXDEPTH: ", "Takes an integer, 0 to 999999999."),
        ("help DEFINE QREMOTE TARGQ", "DEFINE QREMOTE TARGET (also written TARGQ): ", None),
        ("help DEFINE QLOCAL TRIGGER", "DEFINE QLOCAL TRIGGER: ", "Takes a flag (off: NOTRIGGER)."),
    ],
)
def test_one_attribute(text, first, takes):
    lines = help_for(text.split(None, 1)[1])
    assert lines[0].startswith(first)
    if takes is not None:
        assert lines[1].strip() == takes


def test_lab_controls_control_commands_and_shell_commands():
    lab = help_for("LAB")
    assert lab[0].startswith("LAB: ") and any(line.split()[:2] == ["LAB", "CLOCK"] for line in lab[1:])
    clock = help_for("LAB CLOCK")
    assert any(line.startswith("  ADVANCE ") for line in clock)
    crtmqm = help_for("crtmqm")
    assert crtmqm[0].startswith("usage: crtmqm") and any("-ll" in line for line in crtmqm)
    assert help_for("\\format") == ["\\format mqsc|table|json|csv: Choose how responses are shown."]
    assert help_for("\\i") == ["\\i FILE: Run an MQSC file here, with its runmqsc report."]
    assert help_for("\\timing")[0].startswith("\\timing [on|off]: ")
    assert {"\\i FILE", "\\o [FILE | |COMMAND]", "\\pager [on|off|COMMAND]", "\\e"} <= {
        line[:28].strip() for line in help_for("")
    }  # the overview lists every shell command
    assert help_for("csq5pqsg")[0].startswith("usage: csq5pqsg")


@pytest.mark.parametrize(
    "text, meant",
    [
        ("DEFNE", "DEFINE"),
        ("DEFINE QLCOAL", "DEFINE QLOCAL"),
        ("ALTER QMGR IMGRCOV", "ALTER QMGR IMGRCOVQ"),
        ("crtmq", "crtmqm"),
    ],
)
def test_a_typo_gets_what_was_meant(text, meant):
    lines = help_for(text)
    assert lines[0] == f"mqsh: no help for '{text}'."
    assert meant in lines[1].removeprefix("Did you mean: ").rstrip("?").split(", ")


def test_value_text_says_ranges_lists_and_lengths():
    assert value_text(CATALOGUE.attribute("DESCR")) == "a string of up to 64 characters"
    assert value_text(CATALOGUE.attribute("MAXDEPTH")) == "an integer, 0 to 999999999"


def test_help_in_a_session_answers_and_the_session_goes_on(session):
    result = session.execute("\\h DEFINE QLOCAL MAXDEPTH")
    assert result.ok and session.render(result).startswith("DEFINE QLOCAL MAXDEPTH: ")
    assert session.execute("DEFINE QLOCAL(AFTER.HELP)").ok


@pytest.mark.parametrize(
    "text, hint",
    [
        ("DSPLAY QLOCAL(A)", "Did you mean DISPLAY? Type help for the full syntax."),
        ("DISPLAY QLOKAL(A)", "Did you mean QLOCAL? Type help DISPLAY for the full syntax."),
        (
            "ALTER QMGR IMGRCOVQ(YEZ)",
            "Did you mean YES? IMGRCOVQ takes YES | NO. Type help ALTER QMGR IMGRCOVQ for more.",
        ),
        (
            "DEFINE QLOCAL(A) MAXDEPTH(X)",
            "MAXDEPTH takes an integer, 0 to 999999999. Type help DEFINE QLOCAL MAXDEPTH for more.",
        ),
        (
            "DEFINE QLOCAL(MAXDEPTH) X",
            "Type help DEFINE QLOCAL for the full syntax.",
        ),  # a name, not a keyword
    ],
)
def test_an_interactive_syntax_error_is_one_line_of_what_was_meant(session, text, hint):
    session.brief_syntax_errors = True
    result = session.execute(text)
    assert result.syntax_error
    assert session.render(result).splitlines()[2:] == [hint]


def test_batch_syntax_errors_keep_runmqsc_usage(session):
    result = session.execute("DISPLAY QLOCAL(A) CURDPTH")
    lines = session.render(result).splitlines()
    assert "AMQ8427I: Valid syntax for the MQSC command:" in lines and len(lines) > 10


@pytest.mark.parametrize("word", ["end", "EXIT", "quit"])
def test_end_exit_and_quit_have_the_topic_the_overview_lists(word):
    assert help_for(word) == ["END | EXIT | QUIT: Leave mqsh."]
    assert "  END | EXIT | QUIT           Leave mqsh." in help_for("")
