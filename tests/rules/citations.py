"""Which numbered rule headings of each system's specification its case files cite.

One YAML per rule system in `tests/rules/coverage/<system>.yaml` lists every
numbered heading of the system's specification, in order, each with its
`kind`: `engine` (the engine implements it: at least one case file must cite
it) or `page`, `printing`, `vocabulary` (not the engine's; `why` says so).

A case file cites heading `O9` when a `"rule"` value anywhere in its case or
expect JSON (a string, or a list of strings) starts with `O9` not followed by
a digit (`"O9"`, `"O9.2"`, `"O9 ruling"`, never `"O91"`), or when its file name
starts with the id lower-cased, leading zeros allowed, then `-`
(`o9-…`, `o09-…`).
"""
from __future__ import annotations

import json
import pathlib
import re
from dataclasses import dataclass

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
COVERAGE_DIR = pathlib.Path(__file__).resolve().parent / "coverage"
SYSTEMS = ("military", "red-plains", "tactical", "orda", "ordonnance")
KINDS = ("engine", "page", "printing", "vocabulary")
HEADING_ID = re.compile(r"^([A-Z]+)(\d+)$")
SPEC_HEADING = re.compile(r"^#{2,4} ([A-Z]+\d+)(?= |$)")


@dataclass
class Coverage:
    system: str
    engine: list[str]           # ids of the engine headings, in spec order
    cited: dict[str, list[str]]  # engine heading id -> case names citing it

    @property
    def missing(self) -> list[str]:
        return [h for h in self.engine if not self.cited.get(h)]

    def line(self) -> str:
        text = f"{self.system}: {len(self.engine) - len(self.missing)}/{len(self.engine)} engine headings cited"
        return text + (f" (no case: {', '.join(self.missing)})" if self.missing else "")


def load(path: pathlib.Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def spec_heading_ids(spec: pathlib.Path) -> list[str]:
    """The numbered headings of a specification (`## O9 A faction's turn` -> `O9`), in order."""
    ids = []
    for line in spec.read_text(encoding="utf-8").splitlines():
        m = SPEC_HEADING.match(line)
        if m:
            ids.append(m.group(1))
    return ids


def _rule_values(node) -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "rule":
                if isinstance(value, str):
                    found.append(value)
                elif isinstance(value, list):
                    found += [v for v in value if isinstance(v, str)]
            found += _rule_values(value)
    elif isinstance(node, list):
        for item in node:
            found += _rule_values(item)
    return found


def _cites(heading: str, rules: list[str], name: str) -> bool:
    letters, number = HEADING_ID.match(heading).groups()
    by_rule = re.compile(rf"^{letters}{number}(?!\d)")
    by_name = re.compile(rf"^{letters.lower()}0*{number}-")
    return by_name.match(name) is not None or any(by_rule.match(r) for r in rules)


def case_files(folders: list[str]) -> dict[str, list[str]]:
    """Case name -> every `rule` value in its case and expect documents."""
    cases: dict[str, list[str]] = {}
    for folder in folders:
        for case in sorted((ROOT / folder).glob("*.case.json")):
            name = case.name[: -len(".case.json")]
            rules: list[str] = []
            for path in (case, case.with_name(name + ".expect.json")):
                if path.exists():
                    # parse_int=str: a malformed case may hold an integer too long for int().
                    rules += _rule_values(json.loads(path.read_text(encoding="utf-8"), parse_int=str))
            cases[name] = rules
    return cases


def folders_of(doc: dict) -> list[str]:
    cases = doc["cases"]
    return [cases] if isinstance(cases, str) else list(cases)


def coverage(system: str, doc: dict | None = None) -> Coverage:
    doc = doc if doc is not None else load(COVERAGE_DIR / f"{system}.yaml")
    engine = [h for h, entry in doc["headings"].items() if entry["kind"] == "engine"]
    cases = case_files(folders_of(doc))
    cited = {h: [name for name, rules in cases.items() if _cites(h, rules, name)] for h in engine}
    return Coverage(system, engine, cited)


def report() -> list[str]:
    """One coverage line per system that has a coverage file."""
    return [coverage(s).line() for s in SYSTEMS if (COVERAGE_DIR / f"{s}.yaml").exists()]
