"""Show the rule coverage per system at the end of a run that ran tests/rules/test_rule_coverage.py."""


def pytest_terminal_summary(terminalreporter):
    # The reports, not the collected items: with xdist only the workers collect, the controller gets the reports.
    ran = any("test_rule_coverage.py" in getattr(report, "nodeid", "")
              for reports in terminalreporter.stats.values() for report in reports)
    if not ran:
        return
    from .citations import report
    terminalreporter.write_sep("-", "rule coverage (case files citing each engine heading)")
    for line in report():
        terminalreporter.write_line(line)
