"""runmqsc's DISPLAY layout: two items to a line, lists of several names on lines of their own."""

from __future__ import annotations

from mqsh.render.mqsc import display_lines
from mqsh.responses import Display


def test_an_empty_list_pairs_like_any_item():
    shown = Display(
        "AMQ8414I",
        "Display Channel details.",
        [("CERTLABL", " "), ("COMPHDR", "NONE"), ("RCVDATA", " "), ("RCVEXIT", [])],
    )
    assert display_lines(shown)[1:] == [
        "   CERTLABL( )                             COMPHDR(NONE)",
        "   RCVDATA( )                              RCVEXIT( )",
    ]


def test_a_list_of_one_name_starts_a_line_and_may_pair_with_the_next_item():
    shown = Display(
        "AMQ8878I",
        "Display channel authentication record details.",
        [("CUSTOM", " "), ("USERLIST", ["*MQADMIN"]), ("WARN", "NO")],
    )
    assert display_lines(shown)[1:] == [
        "   CUSTOM( )                            ",
        "   USERLIST(*MQADMIN)                      WARN(NO)",
    ]


def test_a_list_of_several_names_stands_alone_one_name_a_line():
    shown = Display(
        "AMQ8550I",
        "Display namelist details.",
        [("NAMELIST", "NL1"), ("NAMES", ["A", "B", "C"]), ("DESCR", " ")],
    )
    assert display_lines(shown)[1:] == [
        "   NAMELIST(NL1)                        ",
        "   NAMES(A                              ",
        "        ,B                              ",
        "        ,C)                             ",
        "   DESCR( )",
    ]
