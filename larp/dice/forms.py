"""The door of the dice acts: revealing a stream names it, so a second press finds it revealed already."""
from django import forms
from django.utils.translation import gettext_lazy as _


class RevealForm(forms.Form):
    stream = forms.CharField(max_length=60, error_messages={
        "required": _("The request does not say which dice to reveal: reload the page and press again.")})


class ContributeForm(forms.Form):
    """A seat's randomness: 256 bits from the tablet's `crypto.getRandomValues`, as 64 hex digits."""
    stream = forms.CharField(max_length=60, error_messages={
        "required": _("The request does not say which dice the randomness is for: reload the page.")})
    value = forms.RegexField(regex=r"^[0-9a-fA-F]{64}$", error_messages={
        "required": _("A contribution is 64 hexadecimal digits (256 bits)."),
        "invalid": _("A contribution is 64 hexadecimal digits (256 bits).")})
    auto = forms.BooleanField(required=False)
