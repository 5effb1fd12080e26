"""Reading the PDFs the tests make."""
from __future__ import annotations

import io

from pypdf import PdfReader


def pdf_pages(content: bytes) -> list[str]:
    """The text of each page, as pypdf extracts it (fails unless it is a PDF)."""
    assert content.startswith(b"%PDF-"), content[:20]
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def squash(text: str) -> str:
    """One line, single spaces: table cells come out on lines of their own."""
    return " ".join(text.split())
