#!/usr/bin/env python
"""Regenerate the Russian catalogue: makemessages, apply locale/ru/translations/*.json, compile.

Each area of the code keeps its Russian texts in its own JSON file (msgid ->
msgstr), so people working on different areas never edit the same .po file.
Prints the msgids still missing a translation; exit 1 if any.
Usage: .venv/bin/python scripts/i18n.py
"""
import json
import subprocess
import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"
PLURALS = "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"


def main() -> int:
    subprocess.run([sys.executable, "manage.py", "makemessages", "-l", "ru", "--no-obsolete",
                    "--ignore=.venv", "--ignore=var", "--ignore=tests", "--ignore=benchmarks"],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    translations: dict[str, str] = {}
    for path in sorted((ROOT / "locale" / "ru" / "translations").glob("*.json")):
        translations.update(json.loads(path.read_text(encoding="utf-8")))
    po = polib.pofile(str(PO))
    po.metadata.update({"Plural-Forms": PLURALS, "Content-Type": "text/plain; charset=UTF-8", "Language": "ru"})
    missing = []
    for entry in po:
        if entry.msgid in translations:
            entry.msgstr = translations[entry.msgid]
            if "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")
        elif entry.msgid_plural:
            if not all(entry.msgstr_plural.values()):
                missing.append(entry.msgid)
        else:
            entry.msgstr = ""
            missing.append(entry.msgid)
    po.save()
    po.save_as_mofile(str(PO.with_suffix(".mo")))
    for msgid in missing:
        print(f"missing Russian: {msgid!r}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
