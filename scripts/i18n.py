#!/usr/bin/env python
"""Regenerate the Russian catalogue: makemessages, apply locale/ru/translations/*.json, compile.

Each area of the code keeps its Russian texts in its own JSON file (msgid ->
msgstr), so people working on different areas never edit the same .po file.
A text given a context (pgettext, {% translate "…" context "…" %}) is keyed "context|msgid".
Prints the msgids still missing a translation, and any msgid two files translate differently
(one English text has one Russian: where the meanings differ, the English must differ too); exit 1 if any.
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
    translations, clashes = load_translations()
    po = polib.pofile(str(PO))
    po.metadata.update({"Plural-Forms": PLURALS, "Content-Type": "text/plain; charset=UTF-8", "Language": "ru"})
    missing = []
    for entry in po:
        key = f"{entry.msgctxt}|{entry.msgid}" if entry.msgctxt else entry.msgid
        if key not in translations and entry.msgid in translations:
            key = entry.msgid            # a context only the English needs: the plain text's Russian serves
        if key in translations:
            entry.msgstr = translations[key]
            if "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")
        elif entry.msgid_plural:
            if not all(entry.msgstr_plural.values()):
                missing.append(entry.msgid)
        else:
            entry.msgstr = ""
            missing.append(key)
    po.save()
    po.save_as_mofile(str(PO.with_suffix(".mo")))
    for msgid in missing:
        print(f"missing Russian: {msgid!r}")
    for clash in clashes:
        print(clash)
    return 1 if missing or clashes else 0


def load_translations() -> tuple[dict[str, str], list[str]]:
    """Every area's msgid -> msgstr, and the msgids two files translate differently."""
    translations: dict[str, str] = {}
    where: dict[str, str] = {}
    clashes = []
    for path in sorted((ROOT / "locale" / "ru" / "translations").glob("*.json")):
        for msgid, msgstr in json.loads(path.read_text(encoding="utf-8")).items():
            if msgid in translations and translations[msgid] != msgstr:
                clashes.append(f"two Russians for {msgid!r}: {where[msgid]} {translations[msgid]!r}, "
                               f"{path.name} {msgstr!r}")
            translations[msgid], where[msgid] = msgstr, path.name
    return translations, clashes


if __name__ == "__main__":
    sys.exit(main())
