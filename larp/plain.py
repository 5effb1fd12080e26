"""A deep copy of plain data (what JSON holds, and tuples), several times faster than `copy.deepcopy`.

The tables keep their state as plain data, and every engine call works on a copy of it (an engine must not change
what the caller holds). An Orda table late in a game copies a case of thousands of values for each unit it
checks (the targets a unit may attack: one engine call per enemy unit), and `copy.deepcopy` was half of such a
page's CPU. `marshal` writes and reads back plain data in C, keeping what `deepcopy` keeps: the order of a dict's
keys, lists as lists and tuples as tuples, an object held twice held twice. Anything else (a lazy translation, a
model, a Decimal) is copied by `copy.deepcopy` as before.
"""
from __future__ import annotations

import copy
import marshal
from typing import TypeVar

T = TypeVar("T")


def copy_of(value: T) -> T:
    """A deep copy of `value`: through marshal when it is plain data, else `copy.deepcopy`."""
    try:
        copied = marshal.loads(marshal.dumps(value))
    except ValueError:  # something marshal cannot write (a subclass of str or int counts: a SafeString, a lazy text)
        return copy.deepcopy(value)
    return copied
