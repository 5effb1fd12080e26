"""Print buttons, the job's status (polled by htmx every second) and the download. Moderators only."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from larp.campaign.access import require_moderator
from larp.campaign.models import Game
from larp.sheets import selectors, services
from larp.sheets.forms import PrintForm
from larp.sheets.models import PrintJob


def _moderated_game(request: HttpRequest, game_id: int) -> Game:
    game = get_object_or_404(Game, pk=game_id)
    require_moderator(request.user, game)
    return game


@login_required
@require_GET
def index(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _moderated_game(request, game_id)
    turn = selectors.current_turn_number(game)
    return render(request, "sheets/index.html", {"game": game, "turn": turn, "jobs": services.recent_jobs(game)})


def _refused(request: HttpRequest, game: Game, problems: list[str]) -> HttpResponse:
    """A request that cannot be printed: with htmx, the reason in the jobs list (htmx swaps only a 2xx answer);
    without, the printing page again with the reason and a 400 status. No job is filed."""
    if request.htmx:
        return render(request, "sheets/partials/jobs.html",
                      {"game": game, "jobs": services.recent_jobs(game), "error": " ".join(problems)})
    for problem in problems:
        messages.error(request, problem)
    response = render(request, "sheets/index.html", {"game": game, "turn": selectors.current_turn_number(game),
                                                     "jobs": services.recent_jobs(game)})
    response.status_code = 400
    return response


@login_required
@require_POST
def request_document(request: HttpRequest, game_id: int, kind: str | None = None) -> HttpResponse:
    game = _moderated_game(request, game_id)
    data = request.POST.copy()
    if kind is not None:
        data["kind"] = kind  # the document named in the address wins over a field of the same name
    form = PrintForm(data)
    if not form.is_valid():
        return _refused(request, game, form.problems())
    try:
        job, _created = services.request_print(game, form.cleaned_data["kind"], form.params(), request.user)
    except services.PrintError as exc:
        return _refused(request, game, exc.messages)
    if request.htmx:
        return render(request, "sheets/partials/jobs.html", {"game": game, "jobs": services.recent_jobs(game)})
    return redirect("sheets:job", game_id=game.pk, job_id=job.pk)


@login_required
@require_GET
@never_cache
def job_status(request: HttpRequest, game_id: int, job_id: int) -> HttpResponse:
    game = _moderated_game(request, game_id)
    job = services.job_status(game, job_id)
    if job is None:
        raise Http404("No such print job.")
    if request.htmx:
        # Finished: the fragment comes back without its hx-trigger, so polling stops.
        return render(request, "sheets/job.html#status", {"game": game, "job": job})
    return render(request, "sheets/job.html", {"game": game, "job": job})


@login_required
@require_GET
def download(request: HttpRequest, game_id: int, job_id: int) -> HttpResponse:
    game = _moderated_game(request, game_id)
    job = get_object_or_404(PrintJob, pk=job_id, game=game)
    if job.state != PrintJob.DONE or not job.content:
        raise Http404("The document is not ready.")
    response = HttpResponse(bytes(job.content), content_type=job.mimetype or "application/pdf")
    # inline: the browser's viewer opens it, one click from the printer
    response["Content-Disposition"] = f'inline; filename="{job.filename}"'
    return response
