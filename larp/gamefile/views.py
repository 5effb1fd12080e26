"""The game-file page of the console (moderators only): the scenario and the whole game to a file and back,
and the automatic backups."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from larp.campaign.access import moderator_game
from larp.gamefile import backups, selectors, services
from larp.gamefile.forms import GameUploadForm, ScenarioUploadForm
from larp.scenarios import ScenarioError


def _page(request, game, scenario_form=None, game_form=None, problems=(), status=200):
    return render(request, "gamefile/page.html", {
        "game": game, "scenario_form": scenario_form or ScenarioUploadForm(),
        "game_form": game_form or GameUploadForm(), "problems": problems, **selectors.page(game)}, status=status)


def _download(name: str, body: bytes, content_type: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_GET
def page(request: HttpRequest, game_id: int) -> HttpResponse:
    return _page(request, moderator_game(request.user, game_id))


@login_required
@require_GET
def scenario(request: HttpRequest, game_id: int) -> HttpResponse:
    name, body = services.scenario_download(moderator_game(request.user, game_id))
    return _download(name, body, "application/yaml; charset=utf-8")


@login_required
@require_GET
def game_file(request: HttpRequest, game_id: int) -> HttpResponse:
    name, body = services.game_download(moderator_game(request.user, game_id))
    return _download(name, body, "application/gzip")


@login_required
@require_GET
def backup(request: HttpRequest, game_id: int, name: str) -> FileResponse:
    game = moderator_game(request.user, game_id)
    found = backups.find(game.pk, name)
    if found is None:
        raise Http404("No such backup.")
    return FileResponse(found.path.open("rb"), as_attachment=True, filename=found.name)


@login_required
@require_POST
def back_up(request: HttpRequest, game_id: int) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    made = backups.back_up(game.pk)
    messages.success(request, _("Backup %(name)s written.") % {"name": made.name})
    return redirect("gamefile:page", game.pk)


@login_required
@require_POST
def new_game(request: HttpRequest, game_id: int) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    form = ScenarioUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, game, scenario_form=form, status=400)
    try:
        created = services.new_game_from_scenario(request.user, form.raw(), form.cleaned_data["file"].name,
                                                  form.cleaned_data["title"])
    except ScenarioError as exc:
        return _page(request, game, scenario_form=form, problems=exc.localized(), status=400)
    messages.success(request, _("The game «%(title)s» is made from the scenario.") % {"title": created.title})
    return redirect("battles:console", created.pk)


@login_required
@require_POST
def restore(request: HttpRequest, game_id: int) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    form = GameUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, game, game_form=form, status=400)
    try:
        restored = services.restore_upload(request.user, form.raw(), form.cleaned_data["title"])
    except services.GameFileError as exc:
        return _page(request, game, game_form=form, problems=[str(exc)], status=400)
    messages.success(request, _("The game «%(title)s» is restored.") % {"title": restored.game.title})
    for note in restored.notes:
        messages.info(request, note)
    return redirect("battles:console", restored.game.pk)
