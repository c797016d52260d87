"""RECOVER CFSTRUCT: a coupling-facility structure rebuilt from its backup and every member's log, on an engine."""
