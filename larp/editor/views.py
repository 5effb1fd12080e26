"""The scenario editor's pages (moderators): thin, every write goes through services."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from larp.scenarios import picture as pictures
from larp.editor import acts, selectors, services
from larp.editor.models import ScenarioDraft
from larp.scenarios import ScenarioError

MAX_UPLOAD = 25 * 1024 * 1024


def _editor(request) -> None:
    if not selectors.can_edit(request.user):
        raise PermissionDenied


def _draft(request, draft_id: int) -> ScenarioDraft:
    _editor(request)
    return get_object_or_404(ScenarioDraft, pk=draft_id)


def _body(request, draft: ScenarioDraft, *, tab: str = "map", selected: str = "", error: str = "",
          status: int = 200, trial: dict | None = None, sent: list | None = None) -> HttpResponse:
    tab = tab if tab in selectors.TABS else "map"
    place = selectors.place_of(draft, selected) if selected else None
    context = {
        "draft": draft, "tab": tab, "error": error, "selected": place, "sent": sent or [],
        "drawing": selectors.drawing(draft, place["id"] if place else "", (trial or {}).get("marks")),
        "problems": selectors.problems(draft), "factions": selectors.forces(draft), "trial": trial,
        "troop_types": selectors.rows(draft.data, "troop_types"),
        "places": selectors.rows(draft.data, "provinces"),
        "lands": [p for p in selectors.rows(draft.data, "provinces") if p.get("domain") == "land"],
        "seas": [p for p in selectors.rows(draft.data, "provinces") if p.get("domain") == "sea"],
        "rules": draft.data.get("rules") if isinstance(draft.data.get("rules"), dict) else {}, "rules_text": acts.rules_text(draft.data) if tab == "numbers" else "",
        "minutes": selectors.minutes(draft.data), "relations": selectors.relations(draft.data),
    }
    template = "editor/partials/body.html" if request.htmx else "editor/page.html"
    return render(request, template, context, status=status)


@login_required
@require_GET
def drafts(request: HttpRequest) -> HttpResponse:
    _editor(request)
    return render(request, "editor/drafts.html", {"drafts": ScenarioDraft.objects.all()})


@login_required
@require_POST
def new(request: HttpRequest) -> HttpResponse:
    _editor(request)
    draft = services.new_draft(request.user, request.POST.get("title", ""))
    return redirect("editor:page", draft.pk)


@login_required
@require_POST
def import_file(request: HttpRequest) -> HttpResponse:
    _editor(request)
    upload = request.FILES.get("file")
    if upload is None or upload.size > MAX_UPLOAD:
        messages.error(request, _("Choose a scenario file (.yaml or .zip) of at most 25 MB."))
        return redirect("editor:drafts")
    try:
        draft = services.import_file(request.user, b"".join(upload.chunks()), upload.name,
                                     request.POST.get("title", ""))
    except ScenarioError as exc:
        for line in exc.localized():
            messages.error(request, line)
        return redirect("editor:drafts")
    return redirect("editor:page", draft.pk)


@login_required
@require_GET
def page(request: HttpRequest, draft_id: int) -> HttpResponse:
    draft = _draft(request, draft_id)
    return _body(request, draft, tab=request.GET.get("tab", "map"), selected=request.GET.get("sel", ""))


@login_required
@require_POST
def act(request: HttpRequest, draft_id: int) -> HttpResponse:
    _draft(request, draft_id)
    out = services.act(draft_id, request.POST.get("version"), request.POST.get("act", ""), request.POST,
                       request.user)
    tab = request.POST.get("tab", "map")
    selected = out.shown if out.shown is not None else request.POST.get("sel", "")
    if not request.htmx:
        if out.error:
            messages.error(request, out.error)
        return redirect(f"{reverse('editor:page', args=[draft_id])}?tab={tab}&sel={selected or ''}")
    sent = []
    if out.error == services.stale_message():
        # What the refused act carried, shown under the refusal so that nothing typed is lost.
        sent = [(k, v) for k, v in request.POST.items()
                if k not in ("csrfmiddlewaretoken", "version", "tab", "sel", "act") and v.strip()][:20]
    return _body(request, out.draft, tab=tab, selected=selected or "", error=out.error, sent=sent)


@login_required
@require_POST
def upload_picture(request: HttpRequest, draft_id: int) -> HttpResponse:
    _draft(request, draft_id)
    upload = request.FILES.get("picture")
    if upload is None:
        messages.error(request, _("Choose the map picture (PNG, JPEG or SVG)."))
    elif upload.size > pictures.MAX_BYTES:
        messages.error(request, _("The picture is larger than 20 MB: make it smaller and upload it again."))
    else:
        out = services.set_picture(draft_id, request.POST.get("version"), b"".join(upload.chunks()), upload.name,
                                   request.user)
        if out.error:
            messages.error(request, out.error)
    return redirect("editor:page", draft_id)


@login_required
@require_GET
def picture(request: HttpRequest, draft_id: int, key: str) -> HttpResponse:
    draft = _draft(request, draft_id)
    if not draft.picture:
        raise Http404("No picture.")
    response = HttpResponse(bytes(draft.picture), content_type=pictures.content_type(draft.picture_type))
    response["Cache-Control"] = "private, max-age=31536000, immutable" if key == draft.picture_key else "no-cache"
    response["Content-Security-Policy"] = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
@require_GET
def export(request: HttpRequest, draft_id: int) -> HttpResponse:
    name, body, content_type = services.export(_draft(request, draft_id))
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_POST
def make_game(request: HttpRequest, draft_id: int) -> HttpResponse:
    draft = _draft(request, draft_id)
    try:
        game = services.make_game(request.user, draft_id, request.POST.get("title", ""))
    except ScenarioError as exc:
        return _body(request, draft, tab=request.POST.get("tab", "map"), error=" ".join(exc.localized()),
                     status=200 if request.htmx else 400)
    messages.success(request, _("The game «%(title)s» is made from the scenario.") % {"title": game.title})
    target = reverse("battles:console", args=[game.pk])
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = target
        return response
    return redirect(target)


@login_required
@require_POST
def try_turn(request: HttpRequest, draft_id: int) -> HttpResponse:
    draft = _draft(request, draft_id)
    from larp.editor import trial

    try:
        seed = int(request.POST.get("seed") or 1)
    except ValueError:
        seed = 1
    result = trial.try_turn(draft.data, seed)
    return _body(request, draft, tab="try", trial=result, error=result.get("error", ""))
