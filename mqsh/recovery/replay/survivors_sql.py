"""The survivors' query: the messages left on each queue, as the SQL Spark runs.

mqsh.recovery.replay.spark._survivors puts its parts together, leaving out
those with nothing to add.
"""

from mqsh.store.records import (
    ATTRIBUTES,
    DOCUMENT_PUT_TIME,
    KIND,
    LSN,
    MESSAGES,
    MSGID,
    NAME,
    OBJECT_KEY_COLUMN,
    OBJECT_TYPE,
    PRIORITY,
    PUT_TIME,
    SIZE,
    STATE,
    UNIT,
)

MESSAGE_FIELDS = (
    f"struct<{MSGID}:string,{PRIORITY}:int,{SIZE}:bigint,{DOCUMENT_PUT_TIME}:string,"
    f"{STATE}:string,{UNIT}:string>"
)
BODY_SCHEMA = (
    f"struct<{OBJECT_TYPE}:string,{NAME}:string,{ATTRIBUTES}:string,{MESSAGES}:array<{MESSAGE_FIELDS}>>"
)
MESSAGE = f"{MSGID}, {PRIORITY}, {SIZE}, {DOCUMENT_PUT_TIME}"  # a message's columns but its state and unit


# The surviving messages, as one query: built from SQL text, it is analysed once, where
# a DataFrame built step by step is analysed again at every step. Rows meet their unit's
# ending, and messages the get that takes them, in windows over the rows themselves: a
# join would read (and, spread, shuffle) both of the parts it joins, each built from the
# moves. The moves it starts from, and its hints, are PLANS'.
SURVIVORS = f"""
WITH moved AS (  -- puts and gets of each queue's current epoch, and the units' endings on it
  {{moved}}
),
rows AS (  -- messages joining queues (olsn, pos: queue order), gets, and endings
  SELECT {{union}} * FROM (
    SELECT log, {OBJECT_KEY_COLUMN}, {LSN} AS olsn, CAST(0 AS BIGINT) AS pos, {MSGID}, {PRIORITY}, {SIZE},
           {PUT_TIME} AS {DOCUMENT_PUT_TIME}, IF({UNIT} IS NULL, 'C', 'P') AS {STATE}, {UNIT}, kind
    FROM moved
    {{images}}
    {{base}})
),
judged AS (  -- each row's unit's first ending on the queue, as lsn * 2 (+ 1 for a backout), null
             -- while in flight and for rows outside units of work
  SELECT *, {{ending}} AS ending
  FROM rows
),
taken AS (  -- a pending put becomes committed or goes, a pending get goes or gives the message back;
            -- a get takes the message (no unit, or a committed one) or holds it (a unit in flight):
            -- a got message is unavailable until its unit ends, so one get at most does either
  SELECT log, {OBJECT_KEY_COLUMN}, olsn, pos, {MESSAGE}, {UNIT}, kind,
         CASE WHEN {STATE} = 'C' THEN 'C' WHEN ending IS NULL THEN {STATE}
              WHEN ({STATE} = 'P') = (ending % 2 = 0) THEN 'C' END AS {STATE},
         bool_or(kind = 'GET' AND ({UNIT} IS NULL OR coalesce(ending % 2 = 0, false))) OVER by_message AS gone,
         max(IF(kind = 'GET' AND ending IS NULL, {UNIT}, NULL)) OVER by_message AS got_in
  FROM judged WHERE kind IN ('PUT', 'GET')
  WINDOW by_message AS (PARTITION BY log, {OBJECT_KEY_COLUMN}, {MSGID})
)
SELECT log, {OBJECT_KEY_COLUMN}, olsn, pos, {MESSAGE}, IF({STATE} = 'C' AND got_in IS NOT NULL, 'G', {STATE}) AS {STATE},
       IF({STATE} = 'C', got_in, {UNIT}) AS {UNIT}
FROM taken WHERE kind = 'PUT' AND NOT gone AND {STATE} IS NOT NULL
"""
# Each row's unit's first ending, found in a window over the unit's rows; rows outside units
# of work are keyed by message there, so that they spread evenly. When no row is in a unit
# of work, there is no ending to find.
UNIT_ENDING = f"""IF({UNIT} IS NULL, NULL, min(IF(kind IN ('CMT', 'BCK'), olsn * 2 + CAST(kind = 'BCK' AS INT), NULL))
                 OVER (PARTITION BY log, {OBJECT_KEY_COLUMN}, coalesce({UNIT}, {MSGID})))"""
NO_UNITS = "CAST(NULL AS BIGINT)"
# Queues whose epoch starts at an image: its messages join the puts.
IMAGE_ARRIVALS = f"""UNION ALL
  SELECT log, {OBJECT_KEY_COLUMN}, epoch, CAST(pos AS BIGINT), {
    ", ".join(f"msg.{name}" for name in (MSGID, PRIORITY, SIZE, DOCUMENT_PUT_TIME, STATE, UNIT))
}, 'PUT'
  FROM (SELECT log, {OBJECT_KEY_COLUMN}, epoch, posexplode(from_json(image, '{BODY_SCHEMA}').{
    MESSAGES
}) AS (pos, msg)
        FROM {{epochs}} WHERE image IS NOT NULL)"""
# Queues that carry on from the object file with messages there: those join the puts.
BASE_ARRIVALS = f"""UNION ALL
  SELECT b.log, b.{OBJECT_KEY_COLUMN}, CAST(-1 AS BIGINT), b.pos, {
    ", ".join(f"b.{name}" for name in (MSGID, PRIORITY, SIZE, DOCUMENT_PUT_TIME, STATE, UNIT))
}, 'PUT'
  FROM {{base_messages}} b JOIN {{epochs}} e ON b.log = e.log AND b.{OBJECT_KEY_COLUMN} = e.{
    OBJECT_KEY_COLUMN
} WHERE e.base"""
# The moves of each queue's current epoch, newer than its file: moves spread over
# partitions meet the few epochs broadcast.
MOVES_IN_EPOCH = f"""SELECT /*+ BROADCAST(e) */ mv.log, mv.{OBJECT_KEY_COLUMN}, mv.{LSN}, mv.{KIND} AS kind, mv.{MSGID},
         mv.{PRIORITY}, mv.{SIZE}, mv.{PUT_TIME}, mv.{UNIT}
  FROM {{moves}} mv JOIN {{epochs}} e ON mv.log = e.log AND mv.{OBJECT_KEY_COLUMN} = e.{OBJECT_KEY_COLUMN}
  WHERE (mv.{KIND} IN ('CMT', 'BCK') OR e.epoch IS NULL OR mv.{LSN} > e.epoch)
    AND (e.base_lsn IS NULL OR mv.{LSN} > e.base_lsn)"""
# Few moves come already kept to their epochs (_in_epoch).
MOVES_AS_GIVEN = f"""SELECT log, {OBJECT_KEY_COLUMN}, {LSN}, {KIND} AS kind, {MSGID}, {PRIORITY}, {SIZE}, {PUT_TIME}, {UNIT}
  FROM {{moves}}"""
# How the survivors' query is planned. Moves spread over partitions are shuffled once
# for each window. Few moves stay in one partition (so do the epochs and base
# messages), and the windows need no shuffle: the whole query is one task. A union of
# parts planned apart no longer says it is one partition, so it is coalesced to one,
# which moves nothing.
PLANS = {
    False: {"moved": MOVES_IN_EPOCH, "union": ""},
    True: {"moved": MOVES_AS_GIVEN, "union": "/*+ COALESCE(1) */"},
}
