"""mqsh: a runmqsc-compatible shell over an in-process model of IBM MQ queue managers."""

__version__ = "0.1.0"
