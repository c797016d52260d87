"""The space map of a shared message data set, rebuilt by scanning its structure, on an engine."""
