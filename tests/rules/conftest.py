"""Show the rule coverage per system at the end of a run that collected tests/rules/test_rule_coverage.py."""


def pytest_terminal_summary(terminalreporter):
    if not any(item.nodeid.startswith("tests/rules/test_rule_coverage.py")
               for item in getattr(terminalreporter.config, "_rule_coverage_items", [])):
        return
    from .citations import report
    terminalreporter.write_sep("-", "rule coverage (case files citing each engine heading)")
    for line in report():
        terminalreporter.write_line(line)


def pytest_collection_modifyitems(config, items):
    config._rule_coverage_items = [i for i in items if "test_rule_coverage" in i.nodeid]
