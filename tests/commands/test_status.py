"""DISPLAY QSTATUS: what the running model says about a queue."""

from __future__ import annotations


def attributes(result) -> dict:
    return dict(result.responses[0].attributes)


def test_open_handles_show_as_input_and_output_processes(session):
    session.execute("DEFINE QLOCAL(Q1)")
    session.execute("LAB OPEN QUEUE(Q1)")
    shown = attributes(session.execute("DISPLAY QSTATUS(Q1) IPPROCS OPPROCS"))
    assert shown["IPPROCS"] == "1" and shown["OPPROCS"] == "1"
    session.execute("LAB CLOSE QUEUE(Q1)")
    assert attributes(session.execute("DISPLAY QSTATUS(Q1) IPPROCS"))["IPPROCS"] == "0"
