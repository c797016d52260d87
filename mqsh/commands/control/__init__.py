"""Control commands (crtmqm, strmqm, dmpmqcfg, rcdmqimg, csq5pqsg ...): run from the operating system's prompt."""
