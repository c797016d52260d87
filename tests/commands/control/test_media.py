"""rcdmqimg and rcrmqobj: records kept on system queues (durable subscriptions, channel
authentication and authority records) come with their queue."""

from __future__ import annotations

from tests.recovery.helpers import qmgr, records, run, started

SUBSCRIBER_QUEUE = "SYSTEM.DURABLE.SUBSCRIBER.QUEUE"


def test_subscriptions_are_recorded_and_recreated_with_the_subscriber_queue(data_dir):
    session = started(data_dir)
    run(session, "DEFINE QLOCAL(PRICE.FEED)", "DEFINE SUB(PRICE.SUB) TOPICSTR('prices') DEST(PRICE.FEED)")
    recorded = run(session, f"rcdmqimg -t ql {SUBSCRIBER_QUEUE}")
    assert any("PRICE.SUB" in line and "recorded" in line for line in recorded)
    run(session, "LAB DAMAGE SUB(PRICE.SUB)")
    assert "AMQ8149S" in run(session, "DISPLAY SUB(PRICE.SUB)")[0]
    recreated = run(session, f"rcrmqobj -t ql {SUBSCRIBER_QUEUE}")
    assert any("PRICE.SUB" in line and "recreated" in line for line in recreated)
    assert any("DEST(PRICE.FEED)" in line for line in run(session, "DISPLAY SUB(PRICE.SUB) DEST"))
    session.close()


def test_subscriptions_are_not_an_object_type_of_their_own(data_dir):
    session = started(data_dir)
    result = session.execute("rcrmqobj -t sub PRICE.SUB")
    assert not result.ok and "invalid choice: 'sub'" in session.render(result)
    session.close()


def test_a_subscription_gets_an_id_of_its_own(data_dir):
    session = started(data_dir)
    run(session, "DEFINE SUB(S1) TOPICSTR('a')", "DEFINE SUB(S2) TOPICSTR('b')")
    ids = [
        line.strip()[6:-1]
        for name in ("S1", "S2")
        for line in run(session, f"DISPLAY SUB({name})")
        if line.strip().startswith("SUBID(")
    ]
    assert len(ids) == 2 and ids[0] != ids[1] and all(len(value) == 48 for value in ids)
    session.close()


def medialog_and_currlog(session) -> tuple[str, str]:
    shown = dict(session.execute("DISPLAY QMSTATUS MEDIALOG CURRLOG").responses[0].attributes)
    return shown["MEDIALOG"], shown["CURRLOG"]


def test_imaging_every_object_moves_medialog_to_the_current_extent(data_dir):
    session = started(data_dir, extra="-lf 16")
    run(
        session,
        "SET AUTHREC PROFILE(APP.Q) OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT)",
        "SET CHLAUTH(APP.SVRCONN) TYPE(BLOCKUSER) USERLIST('nobody')",
        "RESET QMGR TYPE(ADVANCELOG)",
    )
    medialog, currlog = medialog_and_currlog(session)
    assert medialog != currlog
    recorded = run(session, "rcdmqimg -t all *")
    # The records are imaged with the queues they are kept on; known by internal keys, they are not named.
    assert "Media image for object SYSTEM.CHLAUTH.DATA.QUEUE, type qlocal recorded." in recorded
    assert "Media image for object SYSTEM.AUTH.DATA.QUEUE, type qlocal recorded." in recorded
    assert not any("|" in line or "record (on" in line for line in recorded)
    assert medialog_and_currlog(session) == (currlog, currlog)  # the records' images too
    session.close()


def test_a_shutdown_images_the_records_kept_on_an_empty_system_queue(data_dir):
    session = started(data_dir)
    run(session, "SET CHLAUTH(APP.SVRCONN) TYPE(BLOCKUSER) USERLIST('nobody')", "endmqm QM1", "strmqm QM1")
    imaged = [record["k"] for record in records(session, "IMG")]
    assert "QUEUE/SYSTEM.CHLAUTH.DATA.QUEUE" in imaged
    assert {key for key in qmgr(session).state if key.startswith("CHLAUTH/")} <= set(imaged)
    assert "CHLAUTH/APP.SVRCONN|BLOCKUSER|" in imaged  # set after crtmqm: only the shutdown images it
    session.close()


def test_records_known_by_internal_keys_come_back_with_their_queue_unnamed(data_dir):
    session = started(data_dir)
    run(
        session,
        "SET CHLAUTH(APP.SVRCONN) TYPE(BLOCKUSER) USERLIST('nobody')",
        "rcdmqimg -t ql SYSTEM.CHLAUTH.DATA.QUEUE",
        "LAB DAMAGE QUEUE(SYSTEM.CHLAUTH.DATA.QUEUE)",
    )
    recreated = run(session, "rcrmqobj -t ql SYSTEM.CHLAUTH.DATA.QUEUE")
    assert recreated == [
        "Object SYSTEM.CHLAUTH.DATA.QUEUE, type qlocal recreated.",
        "AMQ7234I: Queue SYSTEM.CHLAUTH.DATA.QUEUE on queue manager 'QM1': 0 messages: 0 from the "
        "media image, 0 replayed from the log (S0000000.LOG).",
    ]
    shown = run(session, "DISPLAY CHLAUTH(APP.SVRCONN) TYPE(BLOCKUSER) USERLIST")
    assert any("USERLIST(nobody)" in line for line in shown)
    session.close()
