"""«Ордонанс»'s acts at the table, declared once (larp.tables.acts): the lot (or, with a virtual deck, the deal),
a laid card, the moderator's turn and end rulings, the undo. The pages offer an act only where `open_when` says
the seat may press it now; the door refuses it by the same predicate, inside the table's row lock."""
from __future__ import annotations

from django.contrib import messages
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from larp.tables.acts import BOTH, MODERATOR, Act, Acts

from . import forms, selectors, services, situation

SYSTEM = "ordonnance"


def _virtual(seat) -> bool:
    return services.setup_of(seat.table)["mode"] == situation.VIRTUAL


def lot_open(state, seat):
    if _virtual(seat):
        return True if not state.get("dealt") else _("The cards are already dealt.")
    if state.get("plays"):
        return _("Cards are already on the table: undo them to draw the lot again.")
    return True if not state.get("first_player") else _("The first player is already drawn.")


def play_open(state, seat):
    if state.get("game_over"):
        return _("This contest is over: undo the last play to go on.")
    if not _virtual(seat):
        if not seat.moderator:
            return _("At a physical table the moderator enters the cards.")
        return True if state.get("first_player") else _("Draw the lot for the first player first.")
    if not state.get("dealt"):
        return _("The cards are not dealt yet.")
    if seat.moderator or state.get("to_move") == seat.side:
        return True
    from .words import plain, refusal
    return plain(refusal("not_your_turn"))


def turn_open(state, seat):
    if not state.get("first_player"):
        return _("Nobody has the turn before the lot.")
    return True if not state.get("game_over") else _("This contest is over: undo the last play to go on.")


def end_open(state, seat):
    if _virtual(seat):
        return _("A virtual game ends by itself when nobody can lay.")
    return turn_open(state, seat)


def _players(p) -> list[str]:
    return list(p.table.sides.values_list("key", flat=True))


def _lot(p, d):
    draw = services.deal if _virtual(p) else services.lot
    draw(p.table.pk, p.user, first_player=d["first_player"])


def _undo(p, d):
    services.undo(p.table.pk, p.user, reason=d["reason"])
    messages.success(p.request, _("The last step is undone."))


ACTS_LIST = [
    Act("lot", who=MODERATOR, sided=False, open_when=lot_open, service=_lot,
        form=lambda p: forms.LotForm(p.data, players=_players(p))),
    Act("play", who=BOTH, side_field="player", open_when=play_open,
        form=lambda p: forms.PlayForm(p.data, players=_players(p)),
        service=lambda p, d: services.lay(p.table.pk, p.user, p.seat, player=d["player"], territory=d["territory"],
                                          symbols=d["symbols"], card=d["card"] or None,
                                          correction=d.get("correction") or "")),
    Act("turn", who=MODERATOR, sided=False, open_when=turn_open,
        form=lambda p: forms.TurnForm(p.data, players=_players(p)),
        service=lambda p, d: services.override_turn(p.table.pk, p.user, to_move=d["to_move"], reason=d["reason"])),
    Act("end", who=MODERATOR, sided=False, open_when=end_open, form=lambda p: forms.ReasonForm(p.data),
        service=lambda p, d: services.override_end(p.table.pk, p.user, reason=d["reason"])),
    Act("undo", who=MODERATOR, sided=False, closed_too=True, form=lambda p: forms.ReasonForm(p.data), service=_undo),
]


def page(request, s, *, refusal: str = "", status: int = 200):
    """The table's page for this seat (the moderator's or the player's), with a refusal, if any."""
    s.table.refresh_from_db()
    data = selectors.page(s.table, s)
    if s.moderator:
        data["head"] = selectors.head(s.table, data)
    template = "ordonnance/table.html" if s.moderator else "ordonnance/player.html"
    return render(request, template, {"game": s.table.game, "table": s.table, "d": data, "seat": s,
                                      "refusal": refusal,
                                      "open": ACTS.open_any(s.table.state or {}, s.table, s.moderator, s.side_key)},
                  status=status)


def _status(error) -> int:
    return 400 if getattr(error, "code", None) == "invalid" else 409


ACTS = Acts(system=SYSTEM, table_url="ordonnance:table", page=page, state=lambda table: table.state or {},
            acts=ACTS_LIST, errors=lambda form: " ".join(str(m) for e in form.errors.values() for m in e),
            status_of=_status, closed_status=409, not_yours=gettext_lazy("You may play only for your own side."))

door = ACTS.view()
