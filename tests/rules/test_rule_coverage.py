"""Every rule heading an engine implements is cited by at least one case file (tests/rules/citations.py).

`tests/rules/coverage/<system>.yaml` classifies every numbered heading of the
system's specification: `engine` headings need a case file citing them; the
others (`page`, `printing`, `vocabulary`) say why they are not the engine's.
A new numbered heading in a specification, or a new engine rule without a
case, fails here. The coverage per system is printed (and shown in the
terminal summary, tests/rules/conftest.py).
"""
import pathlib

import pytest

from larp.rules import systems

from . import citations
from .citations import COVERAGE_DIR, KINDS, ROOT, SYSTEMS

FILES = sorted(COVERAGE_DIR.glob("*.yaml"))


def test_there_is_one_coverage_file_per_rule_system():
    assert set(SYSTEMS) == set(systems.SYSTEMS), "citations.SYSTEMS names every system of larp/rules/systems.py"
    found = {p.stem for p in FILES}
    assert found == set(SYSTEMS), (f"coverage files: missing {sorted(set(SYSTEMS) - found)}, "
                                   f"unexpected {sorted(found - set(SYSTEMS))}")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_coverage_file_classifies_every_heading_of_its_spec(path: pathlib.Path):
    doc = citations.load(path)
    assert doc["system"] == path.stem and doc["system"] in systems.SYSTEMS
    for folder in citations.folders_of(doc):
        assert (ROOT / folder).is_dir(), f"{path.name}: no case folder {folder}"
    headings = doc["headings"]
    for hid, entry in headings.items():
        assert citations.HEADING_ID.match(hid), f"{path.name}: {hid!r} is not a heading id"
        assert entry.get("title"), f"{path.name}: {hid} has no title"
        assert entry.get("kind") in KINDS, f"{path.name}: {hid} kind {entry.get('kind')!r} not in {KINDS}"
        if entry["kind"] != "engine":
            assert entry.get("why"), f"{path.name}: {hid} is {entry['kind']} but says not why"
    if doc.get("spec"):
        spec = ROOT / doc["spec"]
        assert spec.is_file(), f"{path.name}: no spec {doc['spec']}"
        assert list(headings) == citations.spec_heading_ids(spec), (
            f"{path.name}: the headings must be every numbered heading of {doc['spec']}, in order")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_engine_heading_is_cited_by_a_case(path: pathlib.Path):
    cov = citations.coverage(path.stem)
    print(cov.line())
    assert not cov.missing, cov.line()


def test_coverage_report():
    """The coverage line of every system, printed; fails (with the table) while a system lacks a case."""
    lines = citations.report()
    print("\n".join(lines))
    assert all("no case" not in line for line in lines), "\n".join(lines)


def test_what_counts_as_citing_a_heading():
    cites = citations._cites
    assert cites("O9", ["O9"], "x") and cites("O9", ["O9.2"], "x") and cites("O9", ["O9 ruling"], "x")
    assert not cites("O9", ["O19"], "x") and not cites("O1", ["O19"], "x") and not cites("R1", ["R12"], "x")
    assert cites("O9", [], "o09-a-turn") and cites("O9", [], "o9-a-turn") and cites("R6", [], "r06-7-pinned")
    assert not cites("O1", [], "o10-reshuffle") and not cites("C1", [], "c10-x") and not cites("O9", [], "source-o9")
    assert citations._rule_values({"a": [{"rule": ["R4", 7]}], "rule": "R6", "b": {"rule": None}}) == ["R4", "R6"]
