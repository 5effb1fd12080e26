"""larp.plain.copy_of: the engines' copy of a table's state is a deep copy, whatever the state holds."""
from decimal import Decimal

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy

from larp.plain import copy_of


def test_a_copy_of_plain_data_is_equal_independent_and_keeps_its_shapes():
    shared = [1, 2]
    state = {"z": 1, "a": {"hex": (3, 4), "units": [{"id": "u1", "wounds": 0}]}, "twice": [shared, shared],
             "x": 1.5, "none": None, "yes": True, "big": 10 ** 40, "text": "Орда"}
    copied = copy_of(state)
    assert copied == state and copied is not state
    assert list(copied) == ["z", "a", "twice", "x", "none", "yes", "big", "text"]  # the keys' order
    assert type(copied["a"]["hex"]) is tuple and copied["yes"] is True
    assert copied["twice"][0] is copied["twice"][1] and copied["twice"][0] is not shared  # held twice, as deepcopy
    copied["a"]["units"][0]["wounds"] = 2
    copied["twice"][0].append(3)
    assert state["a"]["units"][0]["wounds"] == 0 and shared == [1, 2]


def test_what_is_not_plain_data_is_still_copied_deeply():
    state = {"label": mark_safe("<b>да</b>"), "lazy": gettext_lazy("Cell"), "money": Decimal("2.5"),
             "units": [{"id": "u1"}]}
    copied = copy_of(state)
    assert copied == state and isinstance(copied["label"], SafeString) and copied["money"] == Decimal("2.5")
    copied["units"][0]["id"] = "u2"
    assert state["units"][0]["id"] == "u1"
