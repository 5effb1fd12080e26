"""The map on paper: the strategic map with every army's and fleet's position and flag, one landscape page each,
A4 for the print table or A3 for the moderators' wall.

Beside or below the map (whichever leaves the map larger), a list: the moderators' copy names every army and
fleet and where it stands; a faction's copy lists what its own armies, fleets and garrisons hold, and nothing of
anyone else's (R13: everyone sees every flag, only the owner and the moderators what is under it).

The map is drawn with ReportLab's canvas from `larp.maps.view.map_view`'s geometry, as the tablets' SVG draws it
(templates/tablet/map.html, static/css/tablet.css): the canvas is set up in the map's own units with y pointing
down, as in the SVG, and each symbol is drawn in its own units at its node, scaled as the SVG scales it.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, PageBreak, Paragraph

from larp.campaign.labels import number
from larp.sheets import fonts
from larp.sheets.renderers.base import MUTED, PAPERS_MM, Renderer, Section, colour, esc

INK = colors.HexColor("#1b1b1b")
NODE_EDGE = colors.HexColor("#222222")
LAND_LINK = colors.HexColor("#6d5d45")
SEA = colors.HexColor("#1e88e5")
SEA_LIGHT = colors.HexColor("#dcecfb")
SEA_LINK = colors.HexColor("#64b5f6")
SEA_NAME = colors.HexColor("#0d47a1")
CAPITAL = colors.HexColor("#d4a017")
SIEGE = colors.HexColor("#b71c1c")
LEADER = colors.HexColor("#37474f")
NEUTRAL = "#9e9e9e"
FRAME = colors.Color(0.6, 0.6, 0.6)

# A province's name prints this large on A4 (√2 larger on A3) when the map is as large as the page usually lets
# it be: the size map_view places the names for (LABEL_PT / the map's scale on paper).
LABEL_PT = 6.3
# The map's usual share of the page: the whole width, or this share of the height under the heading.
MAP_SHARE = 0.78
MARGIN_MM = 10.0
HEADER_MM = 24.0

# The symbols' outlines, in their own units (the SVG's paths).
FORT = [(-5.5, 5.5), (-5.5, -2.5), (-3.5, -2.5), (-3.5, -5.5), (-1.3, -5.5), (-1.3, -2.5), (1.3, -2.5),
        (1.3, -5.5), (3.5, -5.5), (3.5, -2.5), (5.5, -2.5), (5.5, 5.5)]
SAIL = [(1, -12), (8, -3), (1, -3)]
HULL = [(-9, 0), (11, 0), (7, 6), (-6, 6)]
WAVE_START = (-9, 1)
WAVE = [((-6, -3), (-3, 1)), ((0, 5), (3, 1)), ((6, -3), (9, 1))]  # M-9 1 q3 -4 6 0 t6 0 t6 0


def _on_dark(hex_colour: str | None) -> bool:
    """Whether white text reads on this colour (else black does): a flag's numeral on its cloth."""
    c = colour(hex_colour)
    if c is None:
        return False
    return 0.299 * c.red + 0.587 * c.green + 0.114 * c.blue < 0.6


class MapRenderer(Renderer):
    """`data`: a list of pages as `larp.sheets.selectors.moderators_map` / `faction_maps` make them, each with
    `map` (map_view's geometry), `faction` (None on the moderators' copy), `when` (which moment), and `groups`
    (every faction's units and places) or `stacks` and `garrisons` (one faction's own, with their contents)."""

    document = gettext_lazy("Map")
    filename_stem = "map"
    landscape = True
    papers = ("a4", "a3")
    margin_top_mm = MARGIN_MM
    margin_bottom_mm = 12.0
    margin_left_mm = MARGIN_MM
    margin_right_mm = MARGIN_MM
    footer_offset_mm = 6.0
    list_font_pt = 7.2        # the list's largest size on A4; it shrinks to LIST_FONT_MIN before the map does
    list_font_min_pt = 5.4
    column_mm = 64.0          # the narrowest column the list is set in

    @classmethod
    def label_px(cls, paper: str, width: float, height: float, scale: float) -> float:
        """map_view's `label_px` (the names' size in the symbols' units) that prints the provinces' names about
        LABEL_PT high for a map of this extent on this paper. A3 is A4 enlarged, so both give the same."""
        k = cls.a3_scale if paper == "a3" else 1.0
        short, long = PAPERS_MM[paper]
        usable_w = (long - 2 * MARGIN_MM * k) * mm
        usable_h = (short - (MARGIN_MM + cls.margin_bottom_mm + HEADER_MM) * k) * mm
        on_paper = min(usable_w / width, MAP_SHARE * usable_h / height)  # points per map unit
        return round(max(6.0, min(20.0, LABEL_PT * k / (scale * on_paper))), 2)

    def filename(self) -> str:
        first = self.data[0] if self.data else {}
        who = "moderators" if not first.get("faction") else (
            first["faction"]["code"] if len(self.data) == 1 else "factions")
        when = f"turn{first['turn']}-{first['moment']}" if first.get("turn") and first.get("moment") != "now" else "now"
        return f"{self.filename_stem}-{who}-{when}-{self.paper}.pdf"

    def story(self) -> list:
        story = []
        for i, page in enumerate(self.data):
            if i:
                story.append(PageBreak())
            label = page["faction"]["name"] if page.get("faction") else _("for the moderators")
            story += [Section(label, i + 1, len(self.data)), MapPage(self, page)]
        return story


class MapPage(Flowable):
    """One whole page: the heading, the legend, the map and its list, laid out to fit (never a second page)."""

    def __init__(self, renderer: MapRenderer, page: dict):
        super().__init__()
        self.r, self.page = renderer, page
        self.k = renderer.scale

    def wrap(self, avail_width, avail_height):
        self.width, self.height = avail_width, avail_height - 0.5  # the frame's whole height, less rounding
        return self.width, self.height

    # --- the heading and the legend -------------------------------------------------
    def draw(self):
        c = self.canv
        c.saveState()
        top = self.height
        top = self.draw_heading(c, top)
        top = self.draw_legend(c, top)
        self.draw_body(c, 0, 0, self.width, top - 2.5 * mm * self.k)
        c.restoreState()

    def _fit(self, text: str, font: str, size: float, room: float) -> float:
        """The font size at which the text fits in `room` points: `size`, or smaller."""
        width = stringWidth(text, font, size)
        return size if width <= room else max(size * room / width, size * 0.6)

    def draw_heading(self, c, top: float) -> float:
        k, page = self.k, self.page
        faction = page.get("faction")
        title = _("Map — %(who)s") % {"who": faction["name"] if faction else _("for the moderators")}
        size = 14 * k
        x = 0
        if faction:
            box = 5.2 * mm * k
            c.setFillColor(colour(faction["colour"]) or colors.white)
            c.setStrokeColor(colors.black)
            c.setLineWidth(0.8)
            c.rect(0, top - box, box, box, stroke=1, fill=1)
            x = box + 2.5 * mm * k
        when = page["when"]
        when_size = 11 * k
        when_width = stringWidth(when, fonts.BOLD, when_size)
        size = self._fit(title, fonts.BOLD, size, self.width - x - when_width - 8 * mm * k)
        c.setFillColor(colors.black)
        c.setFont(fonts.BOLD, size)
        c.drawString(x, top - 14 * k, title)
        c.setFont(fonts.BOLD, when_size)
        c.drawRightString(self.width, top - 14 * k, when)
        small = 7.5 * k
        c.setFillColor(MUTED)
        c.setFont(fonts.REGULAR, small)
        c.drawString(x, top - 14 * k - small * 1.6, str(page.get("game") or "")[:120])
        c.drawRightString(self.width, top - 14 * k - small * 1.6, page.get("date", ""))
        y = top - 14 * k - small * 1.6 - 2.2 * mm * k
        band = 1.5 * mm * k
        fill = colour(faction["colour"]) if faction else None
        if fill is not None:
            c.setFillColor(fill)
            c.setStrokeColor(colors.black)
            c.setLineWidth(0.5)
            c.rect(0, y - band, self.width, band, stroke=1, fill=1)
        else:
            c.setStrokeColor(colors.black)
            c.setLineWidth(1.2)
            c.line(0, y - band / 2, self.width, y - band / 2)
        return y - band - 1.8 * mm * k

    def draw_legend(self, c, top: float) -> float:
        """The factions' colours, then what the symbols mean; wraps onto a second line when it must."""
        k = self.k
        size = 7 * k
        box = size * 1.05
        gap = 3.2 * mm * k
        items = [(f["name"], ("swatch", f["colour"])) for f in self.page["map"].get("legend") or []]
        items.append((_("neutral"), ("swatch", NEUTRAL)))
        items += [(_("army (its number on the flag)"), ("flag", None)), (_("fleet"), ("ship", None)),
                  (_("fortress"), ("fortress", None)), (_("capital"), ("capital", None)),
                  (_("under siege"), ("siege", None)), (_("sea zone"), ("sea", None))]
        line = size * 2.1
        x, y = 0.0, top - line * 0.7
        for text_, (kind, hex_colour) in items:
            symbol = box if kind == "swatch" else box * 1.6
            width = symbol + 1.2 * mm * k + stringWidth(text_, fonts.REGULAR, size)
            if x and x + width > self.width:
                x, y = 0.0, y - line
            self.legend_symbol(c, kind, hex_colour, x, y, symbol)
            c.setFillColor(colors.black)
            c.setFont(fonts.REGULAR, size)
            c.drawString(x + symbol + 1.2 * mm * k, y - size * 0.35, text_)
            x += width + gap
        return y - line * 0.5

    def legend_symbol(self, c, kind: str, hex_colour: str | None, x: float, y: float, box: float):
        """A symbol `box` points wide, its left edge at x, centred on y."""
        if kind == "swatch":
            c.setFillColor(colour(hex_colour) or colors.white)
            c.setStrokeColor(colors.black)
            c.setLineWidth(0.6)
            c.rect(x, y - box / 2, box, box, stroke=1, fill=1)
            return
        c.saveState()
        c.translate(x + box / 2, y)
        unit = box / {"siege": 32, "sea": 30, "flag": 20, "ship": 21}.get(kind, 27)
        c.scale(unit, -unit)
        if kind == "flag":
            c.translate(-6, 1.5)
            draw_flag(c, "I", "#ffffff", 12, own=False)
        elif kind == "ship":
            c.translate(-1, 3.5)
            draw_ship(c, "I", "#ffffff")
        elif kind == "sea":
            draw_sea(c)
        else:
            draw_land(c, "#ffffff", fortress=kind == "fortress", capital=kind == "capital", besieged=kind == "siege",
                      mark=False)
        c.restoreState()

    # --- the map and the list -------------------------------------------------------------
    def draw_body(self, c, x0: float, y0: float, width: float, height: float):
        geo = self.page["map"]
        mw, mh = float(geo["width"]), float(geo["height"])
        layout = self.layout(width, height, mw, mh)
        s, (mx, my, _mw, _mh), (lx, ly, lw, lh), blocks, cols, font = layout
        self.draw_map(c, x0 + mx, y0 + my, s)
        self.draw_list(c, x0 + lx, y0 + ly, lw, lh, blocks, cols, font)

    def layout(self, width: float, height: float, mw: float, mh: float):
        """Where the map and the list go: (scale, map box, list box, blocks, columns, font). The list's font
        shrinks before the map does; of the list below the map and the list beside it, the one that leaves the
        map larger wins. The map's box is its drawing's own size (x, y of its lower left corner)."""
        k = self.k
        gap = 4 * mm * k
        column = self.r.column_mm * mm * k
        sizes = [self.r.list_font_pt * k * f for f in (1.0, 0.92, 0.85)] + [self.r.list_font_min_pt * k]
        for font in sizes:
            options = []
            # below: as many columns as the width takes, as short as they can be
            cols = max(1, int((width + gap) // (column + gap)))
            below = _column_height(self.blocks(font), (width - (cols - 1) * gap) / cols, cols)
            if below is not None and below <= 0.45 * height:
                s = min(width / mw, (height - below - gap) / mh)
                list_h = height - mh * s - gap
                options.append((s, "below", cols, list_h))
            # beside: one column on the right, or two
            for side_cols in (1, 2):
                list_w = side_cols * column + (side_cols - 1) * gap
                col_w = (list_w - (side_cols - 1) * gap) / side_cols
                need = _column_height(self.blocks(font), col_w, side_cols)
                if need is not None and need <= height:
                    s = min((width - list_w - gap) / mw, height / mh)
                    options.append((s, "beside", side_cols, width - mw * s - gap))
                    break
            if options:
                s, where, cols, room = max(options, key=lambda o: o[0])
                break
        else:  # a list too long even in the smallest size: it gets half the page under the map, and what fits
            font = sizes[-1]
            cols = max(1, int((width + gap) // (column + gap)))
            s = min(width / mw, (height * 0.5 - gap) / mh)
            where, room = "below", height - mh * s - gap
        if where == "below":
            map_box = ((width - mw * s) / 2, height - mh * s, mw * s, mh * s)
            list_box = (0, 0, width, room)
        else:
            map_box = (0, height - mh * s, mw * s, mh * s)
            list_box = (width - room, 0, room, height)
        return s, map_box, list_box, self.blocks(font), cols, font

    def styles(self, font: float) -> dict:
        base = {"fontName": fonts.REGULAR, "fontSize": font, "leading": font * 1.2, "spaceAfter": font * 0.35}
        return {"block": ParagraphStyle("map-block", **base),
                "head": ParagraphStyle("map-head", **{**base, "fontName": fonts.BOLD, "fontSize": font * 1.12,
                                                      "leading": font * 1.35}),
                "note": ParagraphStyle("map-note", **{**base, "textColor": MUTED, "fontSize": font * 0.9})}

    def blocks(self, font: float) -> list[Paragraph]:
        """The list as paragraphs, each kept whole in one column."""
        st = self.styles(font)
        page = self.page
        if not page.get("faction"):
            out = [Paragraph(esc(_("Every army and fleet, and where it stands")), st["head"])]
            for g in page.get("groups") or []:
                units = "; ".join(f"{esc(u['label'])} — {esc(u['place'])}" for u in g["units"]) or "—"
                out.append(Paragraph(f'<font color="{esc(g["colour"] or NEUTRAL)}">■</font> <b>{esc(g["name"])}</b>'
                                     f" ({len(g['units'])}): {units}", st["block"]))
            return out
        out = [Paragraph(esc(_("Our armies and fleets: for this faction only")), st["head"])]
        for s in page.get("stacks") or []:
            label = s["label"][:1].upper() + s["label"][1:]  # «армия I» opens the line: «Армия I»
            text = f"<b>{esc(label)}</b> — {esc(s['place'])}: {esc(s['cards_text'])}"
            text += " · " + esc(_("power %(power)s, men %(men)s") % {"power": s["power"], "men": number(s["men"])})
            if s["commanders"]:
                text += " · " + esc(_("commanders: %(names)s") % {"names": ", ".join(
                    f"{c['name']} ({c['power']})" for c in s["commanders"])})
            out.append(Paragraph(text, st["block"]))
        if not page.get("stacks"):
            out.append(Paragraph(esc(_("The faction has no army and no fleet.")), st["block"]))
        if page.get("garrisons"):
            garrisons = "; ".join(f"{esc(g['place'])} — {esc(g['cards_text'])}" for g in page["garrisons"])
            out.append(Paragraph(f"<b>{esc(_('Garrisons'))}</b>: {garrisons}", st["block"]))
        out.append(Paragraph(esc(_("Other factions' armies and fleets: their flags on the map, never what they "
                                   "hold (R13).")), st["note"]))
        return out

    def draw_list(self, c, x: float, y: float, width: float, height: float, blocks: list, cols: int, font: float):
        gap = 4 * mm * self.k
        col_w = (width - (cols - 1) * gap) / cols
        col, used = 0, 0.0
        for block in blocks:
            _w, h = block.wrapOn(c, col_w, height)
            h += block.style.spaceAfter
            if used and used + h > height:
                col, used = col + 1, 0.0
            if col >= cols:
                break  # only when even the smallest type left it too long (see layout)
            block.drawOn(c, x + col * (col_w + gap), y + height - used - h + block.style.spaceAfter)
            used += h

    def draw_map(self, c, x: float, y: float, s: float):
        """The map at `s` points per map unit, its lower left corner at (x, y)."""
        geo = self.page["map"]
        own = (self.page.get("faction") or {}).get("code")
        mw, mh = float(geo["width"]), float(geo["height"])
        c.saveState()
        c.setStrokeColor(FRAME)
        c.setLineWidth(0.5)
        c.rect(x, y, mw * s, mh * s, stroke=1, fill=0)
        c.translate(x, y + mh * s)
        c.scale(s, -s)  # the SVG's coordinates from here on: map units, y down
        c.setLineCap(1)
        c.setLineJoin(1)
        for link in geo["links"]:
            if link["kind"] == "coast":
                c.setStrokeColor(SEA, alpha=0.75)
                c.setLineWidth(1.3)
                c.setDash([5, 4])
            elif link["kind"] == "sea":
                c.setStrokeColor(SEA_LINK)
                c.setLineWidth(2.6)
                c.setDash([0.5, 5])
            else:
                c.setStrokeColor(LAND_LINK)
                c.setLineWidth(2.2)
                c.setDash([])
            c.line(link["x1"], link["y1"], link["x2"], link["y2"])
        c.setDash([])
        c.setStrokeAlpha(1)
        scale, marker = geo["scale"], geo["marker"]
        for n in geo["nodes"]:
            c.saveState()
            c.translate(n["x"], n["y"])
            c.scale(scale, scale)
            if n["sea"]:
                draw_sea(c)
            else:
                draw_land(c, n["colour"], fortress=n["fortress"], capital=n["capital"], besieged=n["besieged"])
            c.restoreState()
        font = geo["label_px"]
        for n in geo["nodes"]:
            c.saveState()
            c.translate(n["x"], n["y"])
            c.scale(scale, scale)
            if n.get("leader"):
                c.setStrokeColor(LEADER)
                c.setLineWidth(1.3)
                x1, y1, x2, y2 = n["leader"]
                c.line(x1, y1, x2, y2)
            text(c, n["name"], n["lx"], n["ly"], font, anchor=n["anchor"], fill=SEA_NAME if n["sea"] else INK,
                 halo=2.5, italic=n["sea"])
            c.restoreState()
        for f in geo["flags"]:
            c.saveState()
            c.translate(f["x"], f["y"])
            c.scale(marker, marker)
            draw_flag(c, f["roman"], f["colour"], f["width"], own=bool(own) and f["faction_code"] == own)
            c.restoreState()
        for ship in geo["ships"]:
            c.saveState()
            c.translate(ship["x"], ship["y"])
            c.scale(marker, marker)
            draw_ship(c, ship["roman"], ship["colour"], own=bool(own) and ship["faction_code"] == own)
            c.restoreState()
        c.restoreState()


def _column_height(blocks: list[Paragraph], col_width: float, cols: int) -> float | None:
    """The least column height that sets these blocks (each kept whole) in `cols` columns, None if a block is
    wider than the column can hold."""
    heights = []
    for block in blocks:
        _w, h = block.wrap(col_width, 10 ** 6)
        heights.append(h + block.style.spaceAfter)
    if not heights:
        return 0.0

    def fits(limit: float) -> bool:
        col, used = 0, 0.0
        for h in heights:
            if used and used + h > limit:
                col, used = col + 1, 0.0
            if h > limit or col >= cols:
                return False
            used += h
        return True

    low, high = max(heights), sum(heights)
    for _step in range(30):
        if high - low < 0.5:
            break
        middle = (low + high) / 2
        low, high = (low, middle) if fits(middle) else (middle, high)
    return high


# --- the symbols, each in its own units with y down (as the SVG draws them) -------------------------

def _polygon(c, points, *, fill, stroke, width: float):
    path = c.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    if fill is not None:
        c.setFillColor(fill)
    c.setStrokeColor(stroke)
    c.setLineWidth(width)
    c.drawPath(path, stroke=1, fill=1 if fill is not None else 0)


def draw_sea(c):
    c.setFillColor(SEA_LIGHT)
    c.setStrokeColor(SEA)
    c.setLineWidth(1.5)
    c.roundRect(-15, -9, 30, 18, 9, stroke=1, fill=1)
    path = c.beginPath()
    x0, y0 = WAVE_START
    path.moveTo(x0, y0)
    for (qx, qy), (x1, y1) in WAVE:  # a quadratic curve as the cubic one it is
        path.curveTo(x0 + 2 / 3 * (qx - x0), y0 + 2 / 3 * (qy - y0), x1 + 2 / 3 * (qx - x1), y1 + 2 / 3 * (qy - y1),
                     x1, y1)
        x0, y0 = x1, y1
    c.setLineWidth(1.2)
    c.drawPath(path, stroke=1, fill=0)


def draw_land(c, hex_colour: str, *, fortress: bool, capital: bool, besieged: bool, mark: bool = True):
    if besieged:
        c.setStrokeColor(SIEGE)
        c.setLineWidth(2.2)
        c.setDash([4, 2.5])
        c.circle(0, 0, 15.5, stroke=1, fill=0)
        c.setDash([])
    if capital:
        c.setStrokeColor(CAPITAL)
        c.setLineWidth(2.4)
        c.circle(0, 0, 12.6, stroke=1, fill=0)
    c.setFillColor(colour(hex_colour) or colors.white)
    c.setStrokeColor(NODE_EDGE)
    c.setLineWidth(1.4)
    c.circle(0, 0, 10, stroke=1, fill=1)
    if fortress:
        _polygon(c, FORT, fill=colors.white, stroke=NODE_EDGE, width=1)
    if besieged and mark:
        text(c, "⚔", -13, -10, 10, anchor="start", fill=SIEGE, bold=True, halo=2.6)


def draw_flag(c, numeral: str, hex_colour: str, width: float, *, own: bool):
    c.setStrokeColor(INK)
    c.setLineWidth(1.2)
    c.line(0, 8, 0, -11)
    c.setFillColor(colour(hex_colour) or colors.white)
    c.setLineWidth(1.6 if own else 0.8)
    c.rect(0, -11, width, 10, stroke=1, fill=1)
    text(c, numeral, width / 2, -3.5, 7, anchor="middle", fill=colors.white if _on_dark(hex_colour) else INK,
         bold=True)


def draw_ship(c, numeral: str, hex_colour: str, *, own: bool = False):
    c.setStrokeColor(INK)
    c.setLineWidth(1.2)
    c.line(0, 0, 0, -13)
    _polygon(c, SAIL, fill=colors.white, stroke=INK, width=0.6)
    _polygon(c, HULL, fill=colour(hex_colour) or colors.white, stroke=INK, width=1.6 if own else 0.8)
    text(c, numeral, 1, 4.8, 7, anchor="middle", fill=colors.white if _on_dark(hex_colour) else INK, bold=True)


def text(c, value: str, x: float, y: float, size: float, *, anchor: str = "start", fill=INK, bold: bool = False,
         halo: float = 0.0, italic: bool = False):
    """Text with its baseline at (x, y) of the flipped (y down) coordinates, upright, with a white halo under it
    (the SVG's paint-order: stroke) so a name stays legible across the lines it crosses."""
    font = fonts.BOLD if bold else fonts.REGULAR
    width = stringWidth(value, font, size)
    dx = -width / 2 if anchor == "middle" else (-width if anchor == "end" else 0)
    c.saveState()
    c.translate(x, y)
    c.scale(1, -1)
    if italic:
        c.skew(0, 12)
    c.setFont(font, size)
    if halo:
        c.setStrokeColor(colors.white)
        c.setLineWidth(halo)
        c.setLineJoin(1)
        c.drawString(dx, 0, value, mode=1)
    c.setFillColor(fill)
    c.drawString(dx, 0, value)
    c.restoreState()
