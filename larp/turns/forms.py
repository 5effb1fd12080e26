"""The door of the console's phase controls: each act's fields checked, with messages for the moderator.

Every act names the phase it was pressed for (`phase`), so a second press of the same button, or a second
moderator's, finds the state moved on and is refused instead of acting twice.
"""
from django import forms
from django.utils.translation import gettext_lazy as _

REASON_MAX = 500


def phase_field() -> forms.IntegerField:
    return forms.IntegerField(min_value=1, max_value=2**62, error_messages={
        "required": _("The request does not say which phase it was made for: reload the console and press again."),
        "invalid": _("The request names no phase that exists: reload the console and press again."),
        "min_value": _("The request names no phase that exists: reload the console and press again."),
        "max_value": _("The request names no phase that exists: reload the console and press again."),
    })


def reason_field(required=False) -> forms.CharField:
    return forms.CharField(required=required, max_length=REASON_MAX, strip=True, error_messages={
        "required": _("Write the reason: the log keeps it."),
        "max_length": _("The reason is too long: at most %(limit_value)d characters."),
    })


class StartForm(forms.Form):
    pass


class PhaseActForm(forms.Form):
    """Pause, resume: the phase, the clock the press was made on (Phase.clock_mark) and an optional reason."""

    phase = phase_field()
    clock = forms.CharField(required=False, max_length=64, strip=True, error_messages={
        "max_length": _("The request names no deadline that exists: reload the console and press again.")})
    reason = reason_field()


class ExtendForm(PhaseActForm):
    minutes = forms.FloatField(min_value=0.1, max_value=120, error_messages={
        "required": _("Give the extension in minutes, e.g. 2."),
        "invalid": _("Give the extension in minutes, e.g. 2."),
        "min_value": _("An extension must be between 0 and 120 minutes."),
        "max_value": _("An extension must be between 0 and 120 minutes."),
    })


class ShortenForm(PhaseActForm):
    minutes = forms.FloatField(min_value=0.1, max_value=120, error_messages={
        "required": _("Give in minutes how much to take off, e.g. 2."),
        "invalid": _("Give in minutes how much to take off, e.g. 2."),
        "min_value": _("A phase can be shortened by 0 to 120 minutes."),
        "max_value": _("A phase can be shortened by 0 to 120 minutes."),
    })


class LeavePhaseForm(PhaseActForm):
    """End now, next phase: a phase with unfinished work is left only with `skip` and a reason."""

    skip = forms.BooleanField(required=False)

    def clean(self):
        data = super().clean()
        if data.get("skip") and not data.get("reason"):
            self.add_error("reason", _("Write why the phase is skipped: the log keeps it."))
        return data


class CloseWhenReadyForm(forms.Form):
    on = forms.BooleanField(required=False)


class DrawForm(forms.Form):
    order = forms.CharField(max_length=2000, error_messages={
        "required": _("The draw must name every faction exactly once.")})

    def clean_order(self):
        return [c.strip() for c in self.cleaned_data["order"].replace(",", " ").split() if c.strip()]


FORMS = {"start": StartForm, "pause": PhaseActForm, "resume": PhaseActForm, "extend": ExtendForm,
         "shorten": ShortenForm,
         "end": LeavePhaseForm, "next": LeavePhaseForm, "draw": StartForm,
         "close_when_ready": CloseWhenReadyForm, "draw_manual": DrawForm}
