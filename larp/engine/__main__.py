"""`python -m larp.engine battle|odds|movement|turn CASE.json`."""
import sys

from .cli import main

if __name__ == "__main__":
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8")
    sys.exit(main(sys.argv[1:], sys.stdin, sys.stdout, sys.stderr))
