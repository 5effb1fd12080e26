"""Logging: a refused request (403) is one line in the log, not a traceback."""
import logging


class OneLineForbidden(logging.Filter):
    """A 403 is an expected answer (a player opening a moderator's page), not a fault: keep the line, drop
    the traceback Django attaches, and say why it was refused."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403 and record.exc_info:
            reason = str(record.exc_info[1] or "").replace("\n", " ").strip()
            record.msg = record.getMessage() + (f" ({reason})" if reason else "")
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True
