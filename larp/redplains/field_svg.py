"""The Red Plains field as SVG, written here rather than by a template loop.

Every page of a Red Plains table (each seat's tablet, the moderator's, the projector) draws the field again after
each act: seventy-two cells and more, each with its square, its name and its terrain, and every unit's counter.
Through the template language that was half of a page's CPU (about 30 of 58 ms for a player's page, 43 of 88
for the moderator's); written with f-strings it is a few milliseconds. The drawing's data comes from
`larp.redplains.selectors.board` (whole numbers only: no locale decimal comma can reach the SVG); every text
in it is escaped here.
"""
from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _


def _cell(c: dict, size: int) -> str:
    x, y = c["x"], c["y"]
    classes = "rp-cell" + (" hill" if c["hill"] else "") + (" forest" if c["forest"] else "") \
        + (" extra" if c["extra"] else "") + f" {escape(c['zone'])}"
    terrain = ""
    if c["hill"]:
        terrain += f'<text class="rp-terrain" x="{x + 44}" y="{y + 56}">▲</text>'
    if c["forest"]:
        terrain += f'<text class="rp-terrain" x="{x + 44}" y="{y + 56}">♣</text>'
    return (f'<g class="{classes}" data-cell="{escape(c["id"])}"><rect x="{x}" y="{y}" width="{size}" '
            f'height="{size}"></rect><text class="rp-label" x="{x + 3}" y="{y + 11}">{escape(c["id"])}</text>'
            f'{terrain}</g>')


def _ghost(g: dict, size: int) -> str:
    x, y, cell = g["x"], g["y"], escape(g["id"])
    label = escape(_("Add the cell %(cell)s") % {"cell": g["id"]})
    return (f'<g class="rp-ghost" data-add-cell="{cell}" role="button" aria-label="{label}">'
            f'<rect x="{x + 3}" y="{y + 3}" width="{size - 6}" height="{size - 6}"></rect>'
            f'<text class="rp-label" x="{x + 6}" y="{y + 14}">{cell}</text></g>')


def _counter(u: dict) -> str:
    x, y = u["x"], u["y"]
    orders = f'<text class="rp-orders" x="{x + 54}" y="{y + 58}">{u["orders"]}✎</text>' if u["orders"] else ""
    return (f'<g class="rp-unit{" fleeing" if u["fleeing"] else ""}" data-unit="{escape(u["id"])}" '
            f'data-side="{escape(u["side"])}"><title>{escape(u["name"])}</title>'
            f'<rect x="{x + 6}" y="{y + 14}" width="48" height="34" rx="4" fill="{escape(u["colour"])}"></rect>'
            f'<text class="rp-short" x="{u["cx"]}" y="{y + 28}">{escape(u["short"])}</text>'
            f'<text class="rp-figs" x="{u["cx"]}" y="{y + 44}">{escape(u["figures"])}</text>'
            f'<polygon class="rp-arrowhead" points="{escape(u["arrow"])}"></polygon>{orders}</g>')


def field(board: dict) -> SafeString:
    """The field's <svg>: cells, the places a moderator may add (ghosts), the centre line, the river and its
    bridge, and the counters, in that order (later ones are drawn on top)."""
    size = board["size"]
    parts = [f'<svg class="rp-board" viewBox="{escape(board["view_box"])}" role="img" '
             f'aria-label="{escape(_("The field"))}" data-board>']
    parts.extend(_cell(c, size) for c in board["cells"])
    parts.extend(_ghost(g, size) for g in board["ghosts"])
    centre = board["centre"]
    parts.append(f'<line class="rp-centre" x1="{centre["x1"]}" y1="{centre["y"]}" x2="{centre["x2"]}" '
                 f'y2="{centre["y"]}"></line>')
    river, bridge = board.get("river"), board.get("bridge")
    if river:
        parts.append(f'<rect class="rp-river" x="{river["x"]}" y="{river["y"]}" width="{river["width"]}" '
                     f'height="{river["height"]}" data-river><title>{escape(_("River"))}</title></rect>')
    if bridge:
        title = escape(_("Bridge %(cells)s") % {"cells": bridge["cells"]})
        parts.append(f'<rect class="rp-bridge" x="{bridge["x"]}" y="{bridge["y"]}" width="{bridge["width"]}" '
                     f'height="{bridge["height"]}" rx="3" data-bridge="{escape(bridge["cells"])}"><title>{title}'
                     f'</title></rect>')
    parts.extend(_counter(u) for u in board["counters"])
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every text above is escaped
