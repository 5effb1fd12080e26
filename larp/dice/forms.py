"""The door of the dice acts: revealing a stream names it, so a second press finds it revealed already."""
from django import forms
from django.utils.translation import gettext_lazy as _


class RevealForm(forms.Form):
    stream = forms.CharField(max_length=60, error_messages={
        "required": _("The request does not say which dice to reveal: reload the page and press again.")})
