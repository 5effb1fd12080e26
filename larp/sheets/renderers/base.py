"""What every printed document shares: paper, margins, fonts, styles, the running footer.

A renderer is one class per document (pretix's style): page geometry as
attributes in millimetres, plain data in, `generate()` returning
`(filename, mimetype, bytes)`; storing is the caller's business. Documents
read in black and white: a faction's colour is only ever a swatch or a band
beside its name, never the only thing that tells factions apart.
"""
from __future__ import annotations

import io
from collections.abc import Callable
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from larp.sheets import fonts

PAPERS_MM = {"a4": (210.0, 297.0), "a5": (148.0, 210.0), "a3": (297.0, 420.0)}
GRID = colors.Color(0.25, 0.25, 0.25)
SHADE = colors.Color(0.88, 0.88, 0.88)
MUTED = colors.Color(0.35, 0.35, 0.35)


def esc(text) -> str:
    return escape(str(text if text is not None else ""))


def colour(hex_colour: str | None):
    if not hex_colour:
        return None
    try:
        return colors.HexColor(hex_colour)
    except (ValueError, TypeError):
        return None


class Section(Flowable):
    """A zero-size marker: the running footer names the section it is in; progress counts them."""

    def __init__(self, label: str, index: int, total: int):
        super().__init__()
        self.label, self.index, self.total = label, index, total

    def wrap(self, avail_width, avail_height):
        return 0, 0

    def draw(self):
        self.canv._sheet_section = self.label


class Swatch(Flowable):
    """A square of the faction's colour with a black border (a plain box for the neutral)."""

    def __init__(self, hex_colour: str | None, size: float):
        super().__init__()
        self.fill = colour(hex_colour)
        self.size = size

    def wrap(self, avail_width, avail_height):
        return self.size, self.size

    def draw(self):
        c = self.canv
        c.setLineWidth(0.8)
        c.setStrokeColor(colors.black)
        if self.fill is not None:
            c.setFillColor(self.fill)
        c.rect(0, 0, self.size, self.size, stroke=1, fill=1 if self.fill is not None else 0)


class Band(Flowable):
    """A thin full-width band in the faction's colour under a heading, outlined so it prints in grey;
    a plain black rule when there is no faction."""

    def __init__(self, hex_colour: str | None, height: float):
        super().__init__()
        self.fill = colour(hex_colour)
        self.height = height

    def wrap(self, avail_width, avail_height):
        self.width = avail_width
        return avail_width, self.height

    def draw(self):
        c = self.canv
        c.setLineWidth(0.5)
        c.setStrokeColor(colors.black)
        if self.fill is None:
            c.setLineWidth(1.2)
            c.line(0, self.height / 2, self.width, self.height / 2)
            return
        c.setFillColor(self.fill)
        c.rect(0, 0, self.width, self.height, stroke=1, fill=1)


class RuledLines(Flowable):
    """Lines to write on, filling what is left of the page (up to `max_height`); nothing if too little is left."""

    def __init__(self, title: str, style: ParagraphStyle, line_gap: float, max_height: float, min_height: float):
        super().__init__()
        self.title, self.style = title, style
        self.line_gap, self.max_height, self.min_height = line_gap, max_height, min_height
        self.height = 0

    def wrap(self, avail_width, avail_height):
        self.width = avail_width
        self.height = min(avail_height, self.max_height)
        if self.height < self.min_height:
            self.height = 0
        return avail_width, self.height

    def draw(self):
        if not self.height:
            return
        c = self.canv
        c.setFont(self.style.fontName, self.style.fontSize)
        c.setFillColor(colors.black)
        top = self.height - self.style.fontSize
        c.drawString(0, top, self.title)
        c.setStrokeColor(colors.Color(0.55, 0.55, 0.55))
        c.setLineWidth(0.4)
        y = top - self.line_gap
        while y >= 0:
            c.line(0, y, self.width, y)
            y -= self.line_gap


class _DocTemplate(BaseDocTemplate):
    def __init__(self, *args, renderer: Renderer, **kwargs):
        super().__init__(*args, **kwargs)
        self.renderer = renderer

    def afterFlowable(self, flowable):
        if isinstance(flowable, Section):
            self.renderer.report(flowable.index, flowable.total)


class Renderer:
    """Base of every document. Subclasses set `document`, `filename_stem` and write `story()`."""

    document = "document"           # its title in the PDF's metadata and the footer (translated)
    filename_stem = "document"
    paper = "a4"
    landscape = False
    margin_top_mm = 12.0
    margin_bottom_mm = 14.0
    margin_left_mm = 12.0
    margin_right_mm = 12.0
    footer_offset_mm = 7.0
    base_font_pt = 9.0              # on A4; A5 scales it down, A3 up
    a5_scale = 0.82
    a3_scale = 2 ** 0.5             # A3 is A4 enlarged: the same layout, everything √2 larger
    papers = ("a4", "a5")           # the papers this document is laid out for

    def __init__(self, data, *, paper: str | None = None, progress: Callable[[int], None] | None = None):
        fonts.register_fonts()
        self.data = data
        self.paper = (paper or self.paper).lower()
        if self.paper not in self.papers:
            raise ValueError(f"paper must be one of {', '.join(self.papers)}")
        self.progress = progress
        self._reported = -1
        self.scale = {"a4": 1.0, "a5": self.a5_scale, "a3": self.a3_scale}[self.paper]
        self.styles = self.make_styles()

    # --- geometry -----------------------------------------------------------
    @property
    def page_size(self) -> tuple[float, float]:
        w, h = PAPERS_MM[self.paper]
        if self.landscape:
            w, h = h, w
        return w * mm, h * mm

    def mm(self, value: float) -> float:
        """A length in mm, scaled down on A5 (up on A3) so the same layout fits."""
        return value * mm * self.scale

    @property
    def frame_width(self) -> float:
        return self.page_size[0] - self.mm(self.margin_left_mm) - self.mm(self.margin_right_mm)

    # --- styles ---------------------------------------------------------------
    def make_styles(self) -> dict[str, ParagraphStyle]:
        size = self.base_font_pt * self.scale

        def style(name, **kw):
            kw.setdefault("fontName", fonts.REGULAR)
            kw.setdefault("fontSize", size)
            kw.setdefault("leading", kw["fontSize"] * 1.22)
            kw.setdefault("embeddedHyphenation", 1)  # long words in narrow columns break at soft hyphens
            return ParagraphStyle(name, **kw)

        return {
            "body": style("body"),
            "small": style("small", fontSize=size * 0.85, textColor=MUTED),
            "cell": style("cell"),
            "cell_bold": style("cell_bold", fontName=fonts.BOLD),
            "cell_right": style("cell_right", alignment=TA_RIGHT),
            "cell_right_bold": style("cell_right_bold", fontName=fonts.BOLD, alignment=TA_RIGHT),
            "head": style("head", fontName=fonts.BOLD, fontSize=size * 0.95),
            "kicker": style("kicker", fontName=fonts.BOLD, fontSize=size * 0.95, textColor=MUTED),
            "title": style("title", fontName=fonts.BOLD, fontSize=size * 2.0, leading=size * 2.3),
            "h2": style("h2", fontName=fonts.BOLD, fontSize=size * 1.25, spaceBefore=size * 0.9,
                        spaceAfter=size * 0.35, keepWithNext=1),
            "paragraph": style("paragraph", spaceAfter=size * 0.6),
            "right": style("right", alignment=TA_RIGHT),
            "right_bold": style("right_bold", fontName=fonts.BOLD, fontSize=size * 1.2, alignment=TA_RIGHT),
            "right_big": style("right_big", fontName=fonts.BOLD, fontSize=size * 1.6, leading=size * 1.9,
                               alignment=TA_RIGHT),
            "big_number": style("big_number", fontName=fonts.BOLD, fontSize=size * 1.5, leading=size * 1.8,
                                alignment=TA_RIGHT),
        }

    # --- helpers for subclasses ---------------------------------------------
    def p(self, text, style: str = "body") -> Paragraph:
        return Paragraph(esc(text), self.styles[style])

    def p_markup(self, markup: str, style: str = "body") -> Paragraph:
        return Paragraph(markup, self.styles[style])

    def table(self, rows, widths_mm, *, header_rows: int = 1, extra_style=(), total_row: bool = False,
              row_height_mm: float | None = None) -> Table:
        total = sum(widths_mm)
        widths = [self.frame_width * w / total for w in widths_mm]
        heights = None
        if row_height_mm is not None:
            heights = [None] * header_rows + [self.mm(row_height_mm)] * (len(rows) - header_rows)
        t = Table(rows, colWidths=widths, rowHeights=heights, repeatRows=header_rows, hAlign="LEFT")
        pad = 2.2 * self.scale
        commands = [
            ("GRID", (0, 0), (-1, -1), 0.5, GRID),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), pad),
            ("RIGHTPADDING", (0, 0), (-1, -1), pad),
            ("TOPPADDING", (0, 0), (-1, -1), pad * 0.8),
            ("BOTTOMPADDING", (0, 0), (-1, -1), pad),
        ]
        if header_rows:
            commands += [("BACKGROUND", (0, 0), (-1, header_rows - 1), SHADE)]
        if total_row:
            commands += [("LINEABOVE", (0, -1), (-1, -1), 1.2, colors.black)]
        t.setStyle(TableStyle(commands + list(extra_style)))
        return t

    def heading(self, kicker: str, title: str, hex_colour: str | None, right: list, *, swatch: bool = True) -> list:
        """The top of a page: [swatch] kicker + title on the left, turn and date on the right, a colour band."""
        left = [self.p(kicker.upper(), "kicker"), self.p(title, "title")]
        size = self.mm(15)
        cells = ([Swatch(hex_colour, size)] if swatch else []) + [left, right]
        widths = ([size + self.mm(4)] if swatch else []) + [self.frame_width * 0.62, None]
        fixed = sum(w for w in widths if w is not None)
        widths[-1] = self.frame_width - fixed
        t = Table([cells], colWidths=widths, hAlign="LEFT")
        t.setStyle(TableStyle([
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
        ]))
        return [t, Spacer(1, self.mm(2.5)), Band(hex_colour, self.mm(2.2)), Spacer(1, self.mm(2))]

    def turn_and_date(self, data: dict) -> list:
        turn = data.get("turn")
        if turn:
            lines = [self.p(_("Turn %(n)s") % {"n": turn}, "right_big")]
        else:
            lines = [self.p(_("Before the first turn"), "right_bold")]
        lines.append(self.p(data.get("date", ""), "right"))
        return lines

    def nothing(self, text: str) -> Paragraph:
        return self.p(text, "small")

    # --- output -----------------------------------------------------------------
    def title(self) -> str:
        return str(self.document)

    def filename(self) -> str:
        return f"{self.filename_stem}.pdf"

    def story(self) -> list:
        raise NotImplementedError

    def report(self, index: int, total: int) -> None:
        if self.progress is None or total <= 0:
            return
        percent = min(99, int(100 * index / total))
        if percent != self._reported:
            self._reported = percent
            self.progress(percent)

    def footer_text(self, canvas) -> str:
        game = self._first("game")
        parts = [p for p in (game, self.title(), getattr(canvas, "_sheet_section", "")) if p]
        return " · ".join(parts)

    def _first(self, key: str):
        data = self.data[0] if isinstance(self.data, list) and self.data else self.data
        return data.get(key) if isinstance(data, dict) else None

    def _on_page_end(self, canvas, doc):
        canvas.saveState()
        size = 7.0 * self.scale
        canvas.setFont(fonts.REGULAR, size)
        canvas.setFillColor(MUTED)
        y = self.mm(self.footer_offset_mm)
        left = self.mm(self.margin_left_mm)
        right = self.page_size[0] - self.mm(self.margin_right_mm)
        canvas.drawString(left, y, self.footer_text(canvas)[:150])
        canvas.drawRightString(right, y, _("page %(n)s") % {"n": doc.page})
        canvas.restoreState()

    def generate(self) -> tuple[str, str, bytes]:
        buffer = io.BytesIO()
        width, height = self.page_size
        doc = _DocTemplate(
            buffer, renderer=self, pagesize=(width, height), title=self.title(), author=str(self._first("game") or ""),
            creator="larp.sheets", leftMargin=self.mm(self.margin_left_mm), rightMargin=self.mm(self.margin_right_mm),
            topMargin=self.mm(self.margin_top_mm), bottomMargin=self.mm(self.margin_bottom_mm),
        )
        frame = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        doc.addPageTemplates([PageTemplate(id="page", frames=[frame], onPageEnd=self._on_page_end)])
        story = self.story()
        if not story:
            story = [Spacer(1, 1)]
        doc.build(story)
        if self.progress is not None:
            self.progress(100)
        return self.filename(), "application/pdf", buffer.getvalue()


class PerFactionRenderer(Renderer):
    """A document of one page (or more) per faction: `data` is a list of dicts each with a `faction`.

    Subclasses write `faction_pages(item)`; a document for a single faction is named after it.
    """

    def filename(self) -> str:
        if len(self.data) == 1:
            return f"{self.filename_stem}-{self.data[0]['faction']['code']}.pdf"
        return f"{self.filename_stem}.pdf"

    def story(self) -> list:
        story = []
        for i, item in enumerate(self.data):
            if i:
                story.append(PageBreak())
            story.append(Section(item["faction"]["name"], i + 1, len(self.data)))
            story += self.faction_pages(item)
        return story

    def faction_pages(self, item: dict) -> list:
        raise NotImplementedError
