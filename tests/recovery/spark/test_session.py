"""The Spark session's failures in one line that says what went wrong."""

from __future__ import annotations

import pytest

from mqsh.recovery.spark.session import SparkUnavailable

# A failed job's result collected by toArrow, as py4j passes it on (its stack frames cut short).
LOST_RESULT = """An error occurred while calling o175.getResult.
: org.apache.spark.SparkException: Exception thrown in awaitResult:
\tat org.apache.spark.util.SparkThreadUtils$.awaitResult(SparkThreadUtils.scala:70)
\tat py4j.ClientServerConnection.run(ClientServerConnection.java:108)
Caused by: org.apache.spark.SparkException: Job aborted due to stage failure: Task 2 in stage 24.0 failed 1 \
times, most recent failure: Lost task 2.0 in stage 24.0 (TID 156) (192.0.2.2 executor driver): TaskResultLost \
(result lost from block manager)
Driver stacktrace:
\tat org.apache.spark.scheduler.DAGScheduler.abortStage(DAGScheduler.scala:4560)
"""
OUT_OF_MEMORY = """An error occurred while calling o173.getResult.
: org.apache.spark.SparkException: Exception thrown in awaitResult:
\tat org.apache.spark.util.SparkThreadUtils$.awaitResult(SparkThreadUtils.scala:70)
Caused by: org.apache.spark.SparkException: Job aborted due to stage failure: Task 1 in stage 9.0 failed 1 times
Caused by: java.lang.OutOfMemoryError: Java heap space
\tat java.base/java.util.Arrays.copyOf(Arrays.java:3537)
"""
NO_CAUSE = """An error occurred while calling o12.count.
: java.lang.IllegalStateException: Cannot call methods on a stopped SparkContext.
\tat org.apache.spark.SparkContext.assertNotStopped(SparkContext.scala:122)
"""


@pytest.mark.parametrize(
    "text, said",
    [
        (LOST_RESULT, "TaskResultLost (result lost from block manager)"),
        (OUT_OF_MEMORY, "java.lang.OutOfMemoryError: Java heap space"),
        (NO_CAUSE, "java.lang.IllegalStateException: Cannot call methods on a stopped SparkContext"),
        (
            "[USER_RAISED_EXCEPTION] the task's own words SQLSTATE: P0001\nmore",
            "[USER_RAISED_EXCEPTION] the task's own words SQLSTATE: P0001",
        ),
    ],
)
def test_a_failure_in_the_jvm_is_told_by_its_cause(spark_runner, text, said):
    def fails():
        raise RuntimeError(text)

    with pytest.raises(SparkUnavailable) as failed:
        spark_runner.call(lambda: spark_runner.run(fails))
    assert str(failed.value) == f"Spark replay failed: {said}"


def test_a_failed_task_is_told_in_its_own_words(spark_runner):
    from pyspark.sql import functions as F

    doomed = (
        spark_runner.session()
        .range(5)
        .select(F.when(F.col("id") == 3, F.raise_error(F.lit("the task's own words"))).otherwise(F.col("id")))
    )
    with pytest.raises(SparkUnavailable, match="Spark replay failed: .*the task's own words") as failed:
        spark_runner.call(lambda: spark_runner.run(doomed.toArrow))
    assert "\n" not in str(failed.value)
    assert spark_runner.call(lambda: spark_runner.run(spark_runner.session().range(3).toArrow)).num_rows == 3
