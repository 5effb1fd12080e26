"""The pure rules engine of «Тактические правила» (docs/tactical-rules.md, rules T1–T38).

No Django, no clock, no global random state: a case (JSON data) in, a result
(JSON data) out. The command line is `cli.py`; see README.md for the layout.
"""
