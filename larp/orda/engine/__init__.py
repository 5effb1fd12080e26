"""«Орда», the hex board battle: a pure rules engine (docs/orda.md, rules O1–O24).

No Django, no clock, no global randomness: a whole situation in, a whole result out.
"""
