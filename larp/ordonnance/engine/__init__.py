"""The Ordonnance (Ордонанс) rules engine: rules C1-C17 of docs/ordonnance.md as pure functions.

No Django, no clock, no global random state: a case in, a result out
(see README.md in this folder and `cli.py` for the modes).
"""
