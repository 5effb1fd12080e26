"""What every management command of the project keeps: an error is one line on stderr, never a traceback.

    manage.py <command> ...   exit 0   done
                              exit 2   the input is wrong: an argument, a file, a game that is not
                                       there, the environment (one line saying what)
                              exit 1   an internal error (a bug), still one line; `--traceback` shows it

Hostile input (a binary file, 100,000 nested brackets, a 4,000-digit number, an
argument that is not UTF-8) is the caller's mistake: exit 2. Values quoted in a
message are cut (larp.rules.cli.one_line), so a line stays readable.
"""
from __future__ import annotations

import sys

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, handle_default_options
from django.db import connections

from larp.rules.cli import lone_surrogate, one_line

INPUT_ERROR = 2
INTERNAL_ERROR = 1


def input_error(message: str) -> CommandError:
    """A CommandError for wrong input: one line, exit 2."""
    return CommandError(message, returncode=INPUT_ERROR)


def as_id(text: str) -> int | None:
    """A database id written in ASCII digits that fits a 64-bit integer, or None ("٣", "²", 4,000 digits)."""
    if text.isascii() and text.isdigit() and len(text) <= 18:
        return int(text)
    return None


class Command(BaseCommand):
    """The project's commands derive from this instead of BaseCommand."""

    def parse_argv(self, argv: list[str]):
        """The options, or an input error of one line (argparse would print the usage first)."""
        parser = self.create_parser(argv[0], argv[1])
        parser.called_from_command_line = False  # errors raise CommandError("Error: ...") instead of exiting
        try:
            return parser.parse_args(argv[2:])
        except CommandError as exc:
            message = str(exc).removeprefix("Error: ")
            raise input_error(f"{parser.prog}: {message} (see --help)") from None

    def run_from_argv(self, argv):
        """BaseCommand.run_from_argv, with argument errors and unexpected exceptions as one line too."""
        self._called_from_command_line = True
        traceback = "--traceback" in argv
        try:
            options = self.parse_argv(argv)
            cmd_options = vars(options)
            args = cmd_options.pop("args", ())
            handle_default_options(options)
            self.check_text(cmd_options)
            self.execute(*args, **cmd_options)
        except CommandError as exc:
            if traceback:
                raise
            self._fail(exc.returncode, str(exc))
        except ImproperlyConfigured as exc:  # the environment is wrong (SECRET_KEY, DATABASE_URL ...), not the code
            if traceback:
                raise
            self._fail(INPUT_ERROR, str(exc))
        except RecursionError:
            if traceback:
                raise
            self._fail(INPUT_ERROR, "the input is nested too deeply")
        except Exception as exc:  # noqa: BLE001 - the contract: one line, never a traceback
            if traceback:
                raise
            self._fail(INTERNAL_ERROR, f"internal error: {type(exc).__name__}: {exc}")
        finally:
            try:
                connections.close_all()
            except Exception:  # noqa: BLE001 - the settings may be what failed
                pass

    def _fail(self, code: int, message: str):
        sys.stderr.write(f"{one_line(message)}\n")
        sys.stderr.flush()
        sys.exit(code)

    @staticmethod
    def check_text(options: dict) -> None:
        """Refuse an argument that is not text (bytes that are not UTF-8 reach Python as lone surrogates)."""
        for name, value in options.items():
            values = value if isinstance(value, (list, tuple)) else [value]
            for v in values:
                if isinstance(v, str) and lone_surrogate(v) is not None:
                    shown = v.encode("utf-8", "backslashreplace").decode("utf-8")
                    raise input_error(f"argument {name}: not UTF-8 text: {shown}")
