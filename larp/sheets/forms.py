"""The door of a print request: which document, on which paper, for whom; checked before a job is filed."""
from django import forms
from django.utils.translation import gettext_lazy as _

from larp.sheets.models import PrintJob

def _number(message) -> forms.IntegerField:
    return forms.IntegerField(required=False, min_value=1, max_value=10_000, error_messages={
        "invalid": message, "min_value": message, "max_value": message})


class PrintForm(forms.Form):
    kind = forms.ChoiceField(choices=PrintJob.KINDS, error_messages={
        "required": _("Choose the document to print."),
        "invalid_choice": _("No such document: choose one of the print buttons.")})
    paper = forms.CharField(max_length=10, required=False, error_messages={
        "max_length": _("Choose the paper: A4 or A5.")})
    faction = forms.CharField(max_length=60, required=False, error_messages={
        "max_length": _("No such faction in this game: choose one from the list.")})
    turn = _number(_("The turn must be a whole number from 1 to 10 000."))
    battle = _number(_("The battle's number must be a whole number from 1 to 10 000."))
    after = forms.BooleanField(required=False)  # the map: the state the turn's regroup left, not its start

    def params(self) -> dict:
        """The document's parameters as the print service reads them (empty ones left out)."""
        return {key: self.cleaned_data[key] for key in ("paper", "faction", "turn", "battle", "after")
                if self.cleaned_data.get(key) not in (None, "", False)}

    def problems(self) -> list[str]:
        return [message for errors in self.errors.values() for message in errors]
