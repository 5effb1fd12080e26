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
