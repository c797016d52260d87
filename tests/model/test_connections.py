"""A connection's ids are MQ's: 8 bytes of CONN, 16 of EXTCONN naming the queue manager."""

from __future__ import annotations

from datetime import datetime

from mqsh.model.connections import connect


def test_ids_name_the_queue_manager_and_differ_by_start_and_connection():
    now = datetime(2026, 5, 1, 8, 0)
    first = connect("QM1", 0x38, 1, now)
    assert first.conn == "0000003800000001"
    assert bytes.fromhex(first.extconn) == b"AMQCQM1         "
    assert connect("QM1", 0x38, 2, now).conn != first.conn
    assert connect("QM1", 0x1000, 1, now).conn != first.conn
    assert bytes.fromhex(connect("A.VERY.LONG.QUEUE.MANAGER", 1, 1, now).extconn) == b"AMQCA.VERY.LONG."
