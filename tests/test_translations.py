"""The Russian catalogue's sources: each area's JSON file (scripts/i18n.py). One English text has one Russian
across all of them; a second, different one would silently win or lose by file order."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_msgid_has_two_russian_translations():
    spec = importlib.util.spec_from_file_location("i18n", ROOT / "scripts" / "i18n.py")
    i18n = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(i18n)
    translations, clashes = i18n.load_translations()
    assert len(translations) > 1000
    assert clashes == []
