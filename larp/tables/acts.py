"""An act at a table, declared once as data, and the one door every system's acts go through (docs/tables.md).

A system declares its acts in its own app:

    ACTS = Acts(system="red-plains", page=..., state=..., explain=..., acts=[
        Act("roll", who=BOTH, form=lambda p: f.RollForm(p.data), open_when=rolls_open,
            service=lambda p, d: services.roll(p.table.pk, p.user, p.side, hand=...)),
        ...])

and routes `<table_id>/act/<action>` to `ACTS.door`. The door does, for every act of every system:
the seat (403 for an act that is not the user's to press), the form, the one-time key the page put in the
form, the check that the act is open for that seat now (`open_when(state, seat)` → True or a refusal), the
service, all inside the table's row lock, and then the redirect to the table's page. A refusal re-renders the
table's page with the message in the user's language (status 400, the form as it was filled) and puts the table
page's address back in the browser's bar (base.html: `request.act_back`), so that the page's next form — a GET
«show the odds» without an action of its own, a reload — goes to the table's page, not to the act's address; a
GET of an act's address goes back to the table's page, its query kept. The same `open_when` decides what the pages offer (`Acts.open_for`).
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from larp.tables import services as tables
from larp.tables.access import Seat, seat as seat_of
from larp.tables.models import Press

MODERATOR, SIDE, BOTH = "moderator", "side", "both"
KEY_FIELD = "act_key"          # the form field of the one-time key (templates: {% act_key %})


@dataclass(frozen=True)
class Chair:
    """Who presses, for which side: a side's player for their side; a moderator for the side picked (or none)."""
    table: Any
    moderator: bool
    side: str | None

    @property
    def side_key(self) -> str | None:
        return self.side


@dataclass
class Pressing:
    """One press of an act: what the form and the service are given."""
    request: HttpRequest
    seat: Seat
    table: Any
    state: dict
    side: str | None = None
    form: Any = None

    @property
    def data(self):
        return self.request.POST

    @property
    def user(self):
        return self.request.user


class Refused(Exception):
    """An act refused at the door, with its message in the user's language."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message, self.status = str(message), status


def always(_state, _seat) -> bool:
    return True


@dataclass(frozen=True)
class Act:
    """One act of a system: its name (the URL's last part), who may press it, its form (a function of the press
    returning a bound form, or None for a bare button), when it is open, and the service (press, cleaned data)."""
    name: str
    service: Callable[[Pressing, dict], Any]     # open_when may also raise PermissionDenied: not this seat's (403)
    who: str = BOTH
    form: Callable[[Pressing], Any] | None = None
    open_when: Callable[[dict, Chair], bool | str] = always
    sided: bool = True          # a moderator's press names a side (its `side` field); False: the table's own act
    closed_too: bool = False    # may be pressed on a finished or cancelled table (undo)
    side_field: str = "side"    # the form's field naming the side pressed for
    back: str | None = None     # URL name of the page the act returns to (default: the system's table page)

    def __post_init__(self):
        assert self.who in (MODERATOR, SIDE, BOTH), self.who


@dataclass
class Acts:
    """A system's acts and what the door needs of the system: its table page (for a refusal), its state, and the
    translation of its services' refusals."""
    system: str
    table_url: str                                   # URL name of the table's page (game_id, table_id)
    page: Callable[..., HttpResponse]               # page(request, seat, refusal=..., status=...)
    state: Callable[[Any], dict]                     # the table's current state
    acts: list[Act] = field(default_factory=list)
    explain: Callable[[Exception], str | None] = lambda error: None   # a service's refusal → its message
    errors: Callable[[Any], str] = lambda form: " ".join(str(e) for e in form.errors.values())
    ready: Callable[[Seat], None] = lambda s: None   # raises when the table cannot be played at all
    sides: Callable[[Any], list[str]] = lambda table: [s.key for s in table.sides.all()]
    unknown: Any = None                              # the refusal of an unknown act, or a moderator's naming no side
    status_of: Callable[[ValidationError], int] = lambda error: 400   # a service's refusal → its status
    unknown_404: bool = False                        # an unknown act's address is not found (404), not refused
    closed_status: int = 400                         # the status of a refusal by `open_when`
    not_yours: Any = None                            # if set: a player's press naming another side is refused so
    closed: Any = None                               # the refusal of an act on a closed table (default: generic)

    def __post_init__(self):
        self.by_name = {a.name: a for a in self.acts}
        assert len(self.by_name) == len(self.acts), "two acts of one name"

    # ---- what the pages offer -------------------------------------------------------------------------------
    def open_for(self, state: dict, table, moderator: bool, side: str | None) -> set[str]:
        """The names of the acts this seat (a moderator, or a side's player; for `side`) may press now."""
        if not moderator and side is None:
            return set()
        chair = Chair(table, moderator, side)
        names = set()
        for act in self.acts:
            if not table.is_open and not act.closed_too:
                continue
            if act.who == MODERATOR and not moderator or act.who == SIDE and moderator:
                continue
            if moderator and act.sided != (side is not None):   # a side's acts on its panel, the table's once
                continue
            try:
                if act.open_when(state, chair) is True:
                    names.add(act.name)
            except PermissionDenied:              # not this seat's act now (another side's move)
                pass
        return names

    def open_any(self, state: dict, table, moderator: bool, side: str | None) -> set[str]:
        """What this seat may press now for any side (a moderator's page whose form picks the side)."""
        if not moderator:
            return self.open_for(state, table, moderator, side)
        names = self.open_for(state, table, True, None)
        for key in self.sides(table):
            names |= self.open_for(state, table, True, key)
        return names

    # ---- the door --------------------------------------------------------------------------------------------
    def view(self, wrap=None):
        """The door as the system's URL routes it (`<table_id>/act/<action>`), signed in, `wrap`ped if need be;
        marked as the door of these acts (tests/tables/test_acts_registry.py: no other POST view at a table)."""
        view = login_required(self.door)
        if wrap is not None:
            view = wrap(view)
        view.acts = self
        return view

    def door(self, request: HttpRequest, game_id: int, table_id: int, action: str) -> HttpResponse:
        act = self.by_name.get(action)
        back = reverse(act and act.back or self.table_url, args=[game_id, table_id])
        s = seat_of(request.user, game_id, table_id, system=self.system)
        if request.method != "POST":             # a reload of a refused act's page: back to the table
            query = request.META.get("QUERY_STRING")
            return redirect(f"{back}?{query}" if query else back)
        self.ready(s)
        if act is None and self.unknown_404:
            raise Http404("No such act.")
        try:
            if act is None:
                raise Refused(self.unknown or _("There is no such act."))
            return self._press(request, s, act, back)
        except Refused as refusal:
            request.act_back = back              # the refused page stands at the table's address (base.html)
            return self.page(request, s, refusal=refusal.message, status=refusal.status)

    def _press(self, request, s: Seat, act: Act, back: str) -> HttpResponse:
        if act.who == MODERATOR and not s.moderator:
            raise PermissionDenied("Only the game's moderators may do this.")
        if act.who == SIDE and s.moderator:
            raise PermissionDenied("Only the side's player may do this.")
        table = s.table
        side = s.side_key
        named = request.POST.get(act.side_field) or None
        if not s.moderator and act.sided and self.not_yours and named not in (None, side):
            raise Refused(self.not_yours, 409)
        if s.moderator and act.sided:
            side = named
            if side is None:
                raise Refused(self.unknown or _("Say for which side."))
        pressing = Pressing(request, s, table, self.state(table), side)
        form = pressing.form = act.form(pressing) if act.form else None
        if form is not None and not form.is_valid():
            raise Refused(self.errors(form))
        if s.moderator and act.sided and side not in self.sides(table):
            raise Refused(_("Pick the side from the list."))
        data = form.cleaned_data if form is not None else {}
        key = (request.POST.get(KEY_FIELD) or "").strip()[:64]
        try:
            with tables.locked(table.pk) as locked:
                if key and Press.objects.filter(table=locked, key=key).exists():
                    messages.info(request, _("Already done: this press was counted once."))
                    return redirect(back)
                if not locked.is_open and not act.closed_too:
                    raise Refused(self.closed or _("This table is closed."))
                pressing.table, pressing.state = locked, self.state(locked)
                verdict = act.open_when(pressing.state, Chair(locked, s.moderator, side))
                if verdict is not True:
                    raise Refused(verdict or _("This cannot be done now."), self.closed_status)
                act.service(pressing, data)
                if key:
                    Press.objects.create(table=locked, key=key, act=act.name, side=side or "",
                                         user=request.user if request.user.is_authenticated else None)
        except IntegrityError:                    # the same key, pressed at once (a database without row locks)
            messages.info(request, _("Already done: this press was counted once."))
            return redirect(back)
        except (Refused, PermissionDenied):
            raise
        except ValidationError as error:
            raise Refused(" ".join(error.messages), self.status_of(error)) from error
        except Exception as error:               # noqa: BLE001 - the system's own refusals, else re-raised
            message = self.explain(error)
            if message is None:
                raise
            raise Refused(message) from error
        return redirect(back)


def new_key() -> str:
    return secrets.token_urlsafe(16)
