"""What the site's log never shows: the key of a presenter handover link, which rides in
the link's address (``/teach/<code>/take/<key>/``) and would otherwise be written with
every refused request Django logs (``django.request``, ``django.security.csrf``); and a
line per request answered 503 while the database is down.

Loaded by the ``LOGGING`` setting, before the apps: this module imports nothing of the site.
"""

from __future__ import annotations

import logging
import re

#: a handover link's key in an address, after the part that names the table
KEY_IN_ADDRESS = re.compile(r"(/teach/[^/\s]+/take/)[^/\s]*")


class HideLinkKeys(logging.Filter):
    """Write ``…`` for the key of every handover address in a record's message."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = KEY_IN_ADDRESS.sub(r"\1…", message)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True


#: Set (to True) on a request the site answered 503 because the database could not be
#: reached (:mod:`tutorials.web.database`), which logs each outage once.
DATABASE_OUTAGE = "answered_database_outage"


class HideDatabaseOutageRequests(logging.Filter):
    """Leave out Django's line (and traceback) for each request answered 503 during a
    database outage: the outage has its own lines, one when it starts and one when it ends."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(getattr(record, "request", None), DATABASE_OUTAGE, False)
