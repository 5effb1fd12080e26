"""A map picture from an upload: checked, re-encoded (PNG, JPEG) or refused when unsafe (SVG).

A raster picture is opened by Pillow (a decompression bomb is refused) and written again, so nothing but its
pixels reaches the pages. An SVG is parsed without entities or network and refused when it holds a script, an
event handler, a foreignObject or any reference outside itself (a picture drawn on the tablets must not call
anywhere).
"""
from __future__ import annotations

import io
import re

from django.utils.translation import gettext as _

MAX_BYTES = 20 * 1024 * 1024
MAX_PIXELS = 60_000_000
MAX_SIDE = 12000


class PictureError(Exception):
    """The upload is not a usable map picture; the message says what to do."""


def read(raw: bytes, name: str) -> tuple[bytes, str, int, int]:
    """(the bytes to keep, their type "png"/"jpeg"/"svg", width, height) or PictureError."""
    if len(raw) > MAX_BYTES:
        raise PictureError(_("The picture is larger than 20 MB: make it smaller and upload it again."))
    if not raw:
        raise PictureError(_("The file is empty: choose the map picture."))
    head = raw[:512].lstrip()
    if head.startswith(b"<") or name.lower().endswith(".svg"):
        return _svg(raw)
    return _raster(raw)


def _raster(raw: bytes) -> tuple[bytes, str, int, int]:
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        with Image.open(io.BytesIO(raw)) as probe:
            kind = (probe.format or "").lower()
            probe.verify()
        if kind not in ("png", "jpeg"):
            raise PictureError(_("This is not a PNG, JPEG or SVG picture: save the map as one of them."))
        with Image.open(io.BytesIO(raw)) as img:
            img.load()
            if max(img.size) > MAX_SIDE:
                raise PictureError(_("The picture is larger than %(n)s pixels on a side: make it smaller.")
                                   % {"n": MAX_SIDE})
            out = io.BytesIO()
            if kind == "jpeg":
                img.convert("RGB").save(out, "JPEG", quality=90)
            else:
                img.save(out, "PNG", optimize=False)
            return out.getvalue(), kind, img.size[0], img.size[1]
    except PictureError:
        raise
    except Image.DecompressionBombError:
        raise PictureError(_("The picture has too many pixels: make it smaller.")) from None
    except Exception:  # noqa: BLE001 - any decoding failure of an uploaded file is the user's file
        raise PictureError(_("This is not a PNG, JPEG or SVG picture, or it is damaged: save the map again.")) \
            from None


_SVG_NS = "{http://www.w3.org/2000/svg}"
_XLINK = "{http://www.w3.org/1999/xlink}href"
_BAD_TAGS = {"script", "foreignobject", "iframe", "object", "embed", "audio", "video", "handler", "listener"}
_URL = re.compile(r"url\(\s*['\"]?\s*(?!#)", re.I)
_NUMBER = re.compile(r"^\s*([0-9.]+)\s*(px)?\s*$")


def _svg(raw: bytes) -> tuple[bytes, str, int, int]:
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(raw, parser)
    except etree.XMLSyntaxError:
        raise PictureError(_("This SVG cannot be read: save the map again.")) from None
    if root.tag != f"{_SVG_NS}svg":
        raise PictureError(_("This is not an SVG picture: save the map as PNG, JPEG or SVG."))
    if b"<!ENTITY" in raw or b"<!entity" in raw:
        raise PictureError(_("This SVG defines entities: save it without them."))
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue  # comments, processing instructions
        tag = el.tag.split("}")[-1].lower()
        if tag in _BAD_TAGS:
            raise PictureError(_("This SVG holds a script or embedded content (%(tag)s): save the map without it.")
                               % {"tag": tag})
        for attr, value in el.attrib.items():
            local = attr.split("}")[-1].lower()
            if local.startswith("on"):
                raise PictureError(_("This SVG holds a script (%(attr)s): save the map without it.")
                                   % {"attr": local})
            if local == "href" or attr == _XLINK:
                v = value.strip()
                if not (v.startswith("#") or v.startswith("data:image/png") or v.startswith("data:image/jpeg")):
                    raise PictureError(_("This SVG refers to something outside it (%(ref)s): put everything in the "
                                         "one file.") % {"ref": v[:60]})
            if _URL.search(value):
                raise PictureError(_("This SVG refers to something outside it (%(ref)s): put everything in the "
                                     "one file.") % {"ref": value[:60]})
        if tag == "style" and (_URL.search(el.text or "") or "@import" in (el.text or "")):
            raise PictureError(_("This SVG's style refers to something outside it: put everything in the one file."))
    width, height = _svg_size(root)
    return etree.tostring(root, xml_declaration=True, encoding="utf-8"), "svg", width, height


def _svg_size(root) -> tuple[int, int]:
    box = (root.get("viewBox") or "").replace(",", " ").split()
    if len(box) == 4:
        try:
            w, h = float(box[2]), float(box[3])
            if w > 0 and h > 0:
                return round(w), round(h)
        except ValueError:
            pass
    w, h = _NUMBER.match(root.get("width") or ""), _NUMBER.match(root.get("height") or "")
    if w and h and float(w.group(1)) > 0 and float(h.group(1)) > 0:
        return round(float(w.group(1))), round(float(h.group(1)))
    raise PictureError(_("This SVG has no size: give its svg element a viewBox (or a width and a height)."))


def content_type(kind: str) -> str:
    return {"png": "image/png", "jpeg": "image/jpeg", "svg": "image/svg+xml"}.get(kind, "application/octet-stream")
