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


def test_one_queues_status_shows_everything_as_mq_does_with_monitoring_off(session):
    session.execute("DEFINE QLOCAL(DEV.QUEUE.1)")
    session.execute("LAB PUT QUEUE(DEV.QUEUE.1) COUNT(1) PERSISTENT")
    lines = session.render(session.execute("DIS QSTATUS(DEV.QUEUE.1)")).splitlines()
    assert lines == [
        "AMQ8450I: Display queue status details.",
        "   QUEUE(DEV.QUEUE.1)                      TYPE(QUEUE)",
        "   CURDEPTH(1)                             CURFSIZE(1)",
        "   CURMAXFS(2088960)                       IPPROCS(0)",
        "   LGETDATE( )                             LGETTIME( )",
        "   LPUTDATE( )                             LPUTTIME( )",
        "   MEDIALOG( )                             MONQ(OFF)",
        "   MSGAGE( )                               OPPROCS(0)",
        "   QTIME( , )                              UNCOM(NO)",
    ]
