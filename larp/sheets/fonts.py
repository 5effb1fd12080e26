"""The documents' fonts: DejaVu Sans (Cyrillic included), shipped in static/fonts/.

Registered from the repository, never from system paths, so a PDF looks the
same on every machine. Registration parses the TTF files once per process.
"""
from __future__ import annotations

import threading
from pathlib import Path

from django.conf import settings
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}

_lock = threading.Lock()
_registered = False


def fonts_dir() -> Path:
    return Path(settings.BASE_DIR) / "static" / "fonts"


def register_fonts() -> None:
    global _registered
    if _registered:
        return
    with _lock:
        if _registered:
            return
        for name, filename in FILES.items():
            pdfmetrics.registerFont(TTFont(name, str(fonts_dir() / filename)))
        pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=REGULAR, boldItalic=BOLD)
        _registered = True
