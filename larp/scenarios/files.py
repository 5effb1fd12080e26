"""A scenario as a file: YAML text, or a .zip holding the YAML and the map picture (docs/scenarios.md).

The zip's layout:

    scenario.yaml        the scenario (the same schema as a .yaml file)
    map.png              the map picture, when the scenario has one: scenario.map names it
                         (PNG, JPEG or SVG, at most MAX_PICTURE bytes)

Nothing else is read from a zip: no folders, no other files, no member larger
than its limit (a zip bomb is refused before it is inflated).
"""
from __future__ import annotations

import io
import zipfile

import yaml
from django.utils.translation import gettext_noop

from . import parse_text
from .validate import Problem, ScenarioError

YAML_NAME = "scenario.yaml"
PICTURE_TYPES = (".png", ".jpg", ".jpeg", ".svg")
MAX_YAML = 5 * 1024 * 1024
MAX_PICTURE = 20 * 1024 * 1024
MAX_DEPTH = 40  # brackets inside brackets: no scenario needs more than about 8


class _Dumper(yaml.SafeDumper):
    """Short lists of plain values on one line ([a, b]), everything else in blocks, keys in the file's order."""


def _list(dumper, value):
    flow = len(value) <= 12 and all(isinstance(v, (str, int, float, bool)) or v is None for v in value)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


_Dumper.add_representer(list, _list)


def dump_yaml(data: dict) -> str:
    name = (data.get("scenario") or {}).get("name_ru") or (data.get("scenario") or {}).get("id")
    head = (f"# Scenario «{name}», written by manage.py export_scenario.\n"
            "# The schema: docs/scenarios.md and larp/scenarios/scenario.schema.json.\n"
            "# Check it: manage.py load_scenario FILE --game TITLE --check (creates nothing);\n"
            "# make a game of it: manage.py load_scenario FILE --game TITLE.\n")
    return head + yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=110)


def pack_zip(data: dict, picture: tuple[str, bytes] | None = None) -> bytes:
    """The scenario and its map picture (name, bytes) as one .zip."""
    if picture is not None:
        data = {**data, "scenario": {**data["scenario"], "map": picture[0]}}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(YAML_NAME, dump_yaml(data))
        if picture is not None:
            z.writestr(picture[0], picture[1])
    return buf.getvalue()


def _depth(text: str) -> int:
    """The deepest nesting of brackets in a YAML text (a cheap guard before the parser recurses)."""
    deepest = depth = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth = max(0, depth - 1)
    return deepest


def parse_yaml(raw: bytes, name: str) -> dict:
    """A scenario from a YAML file's bytes, or ScenarioError naming the file and what to do."""
    if len(raw) > MAX_YAML:
        raise ScenarioError([Problem(name,
                                     gettext_noop("the file is larger than 5 MB: a scenario is a short text file"))])
    if b"\x00" in raw[:8192]:
        raise ScenarioError([Problem(name,
                                     gettext_noop("this is not a text file: choose the scenario's .yaml or .zip"))])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ScenarioError([Problem(name,
                                     gettext_noop("this is not a UTF-8 text file: save it as UTF-8 and try again"))]) \
            from None
    if _depth(text) > MAX_DEPTH:
        raise ScenarioError([Problem(name,
                                     gettext_noop("brackets nested more than %(max)s deep: a scenario never needs "
                                              "that; check for unclosed [ or {"), {"max": MAX_DEPTH})])
    try:
        data = parse_text(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{name}, line {mark.line + 1}" if mark else name
        raise ScenarioError([Problem(where, gettext_noop("not valid YAML (%(error)s): check the indentation and the "
                                               "brackets on this line and the one before"),
                                     {"error": getattr(exc, "problem", None) or "?"})]) from None
    except RecursionError:
        raise ScenarioError([Problem(name, gettext_noop("nested too deeply to read"))]) from None
    if not isinstance(data, dict):
        raise ScenarioError([Problem(name,
                                     gettext_noop("the top level must be a mapping (scenario:, rules:, factions: …)"))])
    return data


def parse_zip(raw: bytes, name: str) -> tuple[dict, tuple[str, bytes] | None]:
    """The scenario and its map picture from a .zip's bytes (see the layout above)."""
    try:
        z = zipfile.ZipFile(io.BytesIO(raw))
        members = {i.filename: i for i in z.infolist() if not i.is_dir()}
    except (zipfile.BadZipFile, OSError, ValueError):
        raise ScenarioError([Problem(name, gettext_noop("this .zip is damaged: write it again"))]) from None
    if YAML_NAME not in members:
        raise ScenarioError([Problem(name,
                                     gettext_noop("the .zip has no scenario.yaml at its top: put the scenario there"))])
    if members[YAML_NAME].file_size > MAX_YAML:
        raise ScenarioError([Problem(name,
                                     gettext_noop("the file is larger than 5 MB: a scenario is a short text file"))])
    data = parse_yaml(z.read(YAML_NAME), f"{name}: {YAML_NAME}")
    picture_name = (data.get("scenario") or {}).get("map") if isinstance(data.get("scenario"), dict) else None
    extra = sorted(set(members) - {YAML_NAME, picture_name})
    if extra:
        raise ScenarioError([Problem(name,
                                     gettext_noop("the .zip holds files the scenario does not name: %(files)s; leave "
                                              "only scenario.yaml and the map picture"),
                                     {"files": ", ".join(extra[:5])})])
    if not picture_name:
        return data, None
    info = members.get(picture_name)
    if info is None or "/" in picture_name or not picture_name.lower().endswith(PICTURE_TYPES):
        raise ScenarioError([Problem(f"{name}: scenario.map",
                                     gettext_noop("the map picture %(file)s is not in the .zip "
                                                                 "(a PNG, JPEG or SVG file next to scenario.yaml)"),
                                     {"file": picture_name})])
    if info.file_size > MAX_PICTURE:
        raise ScenarioError([Problem(f"{name}: {picture_name}", gettext_noop("the map picture is larger than 20 MB"))])
    return data, (picture_name, z.read(picture_name))


def parse(raw: bytes, name: str) -> dict:
    """A scenario from an uploaded or read file: a .zip (by its first bytes) or YAML."""
    if raw[:4] == b"PK\x03\x04":
        return parse_zip(raw, name)[0]
    return parse_yaml(raw, name)
