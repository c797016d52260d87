"""Whole-log replay: what a log record means (the reference), and the same meaning on columnar and Spark engines."""
