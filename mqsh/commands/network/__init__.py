"""MQSC commands of channels, listeners, services and clusters."""
