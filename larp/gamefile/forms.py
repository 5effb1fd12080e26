"""The doors of the game-file page: an uploaded scenario or game file, and the new game's title."""
from django import forms
from django.utils.translation import gettext_lazy as _

MAX_SCENARIO_UPLOAD = 25 * 1024 * 1024   # the YAML and a 20 MB map picture
MAX_GAME_UPLOAD = 200 * 1024 * 1024


class _Upload(forms.Form):
    max_size = 0

    def clean_file(self):
        f = self.cleaned_data["file"]
        if f.size > self.max_size:
            raise forms.ValidationError(_("The file is larger than %(mb)s MB.") % {"mb": self.max_size // 2**20})
        return f

    def raw(self) -> bytes:
        return b"".join(self.cleaned_data["file"].chunks())


class ScenarioUploadForm(_Upload):
    max_size = MAX_SCENARIO_UPLOAD
    file = forms.FileField(label=_("Scenario file (.yaml or .zip)"))
    title = forms.CharField(label=_("Title of the new game"), max_length=200)


class GameUploadForm(_Upload):
    max_size = MAX_GAME_UPLOAD
    file = forms.FileField(label=_("Game file (.json.gz)"))
    title = forms.CharField(label=_("Title of the restored game"), max_length=200, required=False,
                            help_text=_("Leave empty to keep the title in the file."))
