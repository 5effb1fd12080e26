"""The door of the moderator's paper order (R14): the unit, the picks of the legal-choice form, a reason."""
from django import forms
from django.utils.translation import gettext_lazy as _

from larp.turns.forms import reason_field

PICK = {"max_length": _("No such choice: choose from the list.")}


class PaperOrderForm(forms.Form):
    unit = forms.CharField(max_length=60, error_messages={"required": _("Choose the army or fleet."),
                                                          "max_length": _("No such army or fleet on the map.")})
    type = forms.CharField(max_length=20, error_messages={"required": _("Choose an order type."), **PICK})
    s1 = forms.CharField(max_length=60, required=False, error_messages=PICK)
    s2 = forms.CharField(max_length=60, required=False, error_messages=PICK)
    s3 = forms.CharField(max_length=60, required=False, error_messages=PICK)
    fleet = forms.CharField(max_length=60, required=False, error_messages=PICK)
    reason = reason_field(required=True)

    def picks(self) -> dict:
        """What the form's pickers chose, as the tablet's form sends it: type, steps in order, fleet."""
        d = self.cleaned_data
        path = []
        for key in ("s1", "s2", "s3"):
            if not d.get(key):
                break
            path.append(d[key])
        return {"unit": d["unit"], "type": d["type"], "path": path, "fleet": d.get("fleet") or None}


NAME = {"max_length": _("The order could not be read: send it again from the order form.")}
MAX_STEPS = 20  # far more than any order's path (R4: at most three provinces); a longer list is not an order


class StepsField(forms.Field):
    """A list of ids sent as repeated fields (path=a&path=b); empty entries are dropped."""

    widget = forms.MultipleHiddenInput
    default_error_messages = {"invalid": _("The order could not be read: send it again from the order form.")}

    def to_python(self, value):
        values = [v.strip() for v in (value or []) if isinstance(v, str) and v.strip()]
        if len(values) > MAX_STEPS or any(len(v) > 60 or "\x00" in v for v in values):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return values


class FiledOrderForm(forms.Form):
    """The door of an order sent as a plain form POST (the JSON body is read by the view): its fields, checked
    for shape; whether the order is legal is the engine's to say."""
    type = forms.CharField(max_length=20, required=False, error_messages=NAME)
    path = StepsField(required=False)
    sea = StepsField(required=False)
    fleet = forms.CharField(max_length=60, required=False, error_messages=NAME)
    target = forms.CharField(max_length=60, required=False, error_messages=NAME)
    target_faction = forms.CharField(max_length=60, required=False, error_messages=NAME)
    key = forms.CharField(required=False, strip=False)  # a key that is not one only matches nothing (clean_key)

    def payload(self) -> dict:
        """The order document as the JSON form of the same request would carry it."""
        d = self.cleaned_data
        data = {"type": d["type"]}
        for name in ("path", "sea"):
            if d[name]:
                data[name] = d[name]
        for name in ("fleet", "target", "target_faction"):
            if d[name]:
                data[name] = d[name]
        if data["type"] in ("fleet_move", "fleet_attack") and data.get("sea"):
            data["sea"] = data["sea"][0]
        return data
