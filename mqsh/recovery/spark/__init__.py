"""The Spark machinery the recovery engines share: the process's session, and the log as a DataFrame."""
