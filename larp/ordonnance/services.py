"""Every write of an «Ордонанс» table, in a transaction and audited (docs/tables.md, docs/ordonnance.md).

Each act runs under the table's row lock: the engine replays the live steps with the new one
added, and the step is recorded only if the engine accepts it; otherwise a ValidationError
in the user's language, and nothing is saved. Every random draw (the lot, each position of a
virtual deck's shuffle) is a die taken through `tables.take_dice`, on the record.
"""
from __future__ import annotations

import yaml
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from larp import ru
from larp.campaign.audit import audit
from larp.campaign.models import Game
from larp.tables import services as tables
from larp.tables.models import Table

from . import situation, words
from .engine.errors import OrdonnanceCaseError
from .models import DeckList

SYSTEM = "ordonnance"
MAX_KINDS = 31          # C3: 31 different cards are possible
MAX_COPIES = 200
MAX_DECK = 1000         # as the engine's own cap


# -- deck lists --------------------------------------------------------------------------------
def _clean_cards(cards) -> list[dict]:
    """Kinds of card (1-5 distinct symbols) with counts, merged by kind, in a stable order."""
    if not isinstance(cards, list):
        raise ValidationError(_("The deck list must be a list of cards."), code="invalid")
    merged: dict[tuple, int] = {}
    for i, card in enumerate(cards, start=1):
        if not isinstance(card, dict):
            raise ValidationError(_("Card %(n)s: give its symbols and how many copies.") % {"n": i}, code="invalid")
        raw = card.get("symbols")
        if not isinstance(raw, list) or not raw:
            raise ValidationError(_("Card %(n)s: a card carries one to five symbols (C3).") % {"n": i}, code="invalid")
        symbols = []
        for s in raw:
            s = words.SYMBOL_ALIASES.get(str(s).strip().lower(), str(s).strip().lower())
            if s not in words.SYMBOLS:
                raise ValidationError(_("Card %(n)s: unknown symbol «%(s)s».") % {"n": i, "s": str(s)[:30]},
                                      code="invalid")
            if s in symbols:
                raise ValidationError(_("Card %(n)s: a symbol appears twice on one card (C3).") % {"n": i},
                                      code="invalid")
            symbols.append(s)
        count = card.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COPIES:
            raise ValidationError(_("Card %(n)s: the number of copies is a whole number from 0 to %(max)s.")
                                  % {"n": i, "max": MAX_COPIES}, code="invalid")
        key = tuple(situation.ordered(symbols))
        merged[key] = merged.get(key, 0) + count
    out = [{"symbols": list(k), "count": n} for k, n in merged.items() if n > 0]
    if sum(c["count"] for c in out) > MAX_DECK:
        raise ValidationError(ru.say(_("A deck of more than %(max)s cards is not accepted.") % {"max": MAX_DECK}),
                              code="invalid")
    return out


def save_deck(game: Game, user, name: str, cards, *, made_for_tests: bool = False, note: str = "",
              deck: DeckList | None = None) -> DeckList:
    cards = _clean_cards(cards)
    name = (name or "").strip()[:120]
    if not name:
        raise ValidationError(_("Give the deck list a name."), code="invalid")
    with transaction.atomic():
        clash = DeckList.objects.filter(game=game, name=name)
        if deck is not None:
            clash = clash.exclude(pk=deck.pk)
        if clash.exists():
            raise ValidationError(_("This game already has a deck list of that name."), code="invalid")
        if deck is None:
            deck = DeckList(game=game)
        deck.name, deck.cards, deck.made_for_tests, deck.note = name, cards, made_for_tests, note.strip()
        deck.save()
        audit(game, user, "ordonnance_deck_saved", {"deck": deck.pk, "name": deck.name, "cards": deck.size,
                                                    "made_for_tests": made_for_tests})
    return deck


def delete_deck(deck: DeckList, user) -> None:
    with transaction.atomic():
        audit(deck.game, user, "ordonnance_deck_deleted", {"deck": deck.pk, "name": deck.name})
        deck.delete()


def import_yaml(game: Game, user, text: str, *, deck: DeckList | None = None) -> DeckList:
    """A deck list from YAML: `name`, `made_for_tests`, `cards: [{symbols: [...], count: n}]`."""
    if len(text) > 200_000:
        raise ValidationError(_("The file is too large for a deck list."), code="invalid")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        raise ValidationError(_("This is not a YAML file the toolkit can read."), code="invalid") from None
    if not isinstance(data, dict) or "cards" not in data:
        raise ValidationError(_("The YAML file must have a «cards» list."), code="invalid")
    return save_deck(game, user, str(data.get("name") or (deck.name if deck else "")), data["cards"],
                     made_for_tests=bool(data.get("made_for_tests", False)), note=str(data.get("note") or ""),
                     deck=deck)


def export_yaml(deck: DeckList) -> str:
    head = ("# «Ордонанс»: deck list (symbols per card and copies). Symbols: spear, bow, swords, helmet, flag\n"
            "# (копье, лук, мечи, шлем, флаг). The rules do not give the deck: this list is scenario data.\n")
    body = {"name": deck.name, "made_for_tests": deck.made_for_tests, "note": deck.note,
            "cards": [{"symbols": c["symbols"], "count": c["count"]} for c in deck.cards]}
    return head + yaml.safe_dump(body, allow_unicode=True, sort_keys=False, default_flow_style=None)


# -- a table -----------------------------------------------------------------------------------
def create(game: Game, user, *, title: str, sides: list, mode: str, deck: DeckList | None,
           territory_names: list[str] | None, announce: str, seed: int | None = None) -> Table:
    """A new contest: its players (key, name, faction) in seating order, its deck, names, scoring."""
    if mode == situation.VIRTUAL and deck is None:
        raise ValidationError(_("A virtual deck needs a deck list: enter one first."), code="invalid")
    roster = situation.expand_deck(deck.cards) if deck is not None else None
    if mode == situation.VIRTUAL and len(roster) < 5 * len(sides):
        raise ValidationError(_("This deck is too small to deal five cards to each player (C5)."), code="invalid")
    setup = {"players": [k for k, _n, _f in sides], "deck": roster, "plays": [], "mode": mode,
             "territory_names": territory_names or None, "announce": announce, "first_player": None,
             "deck_name": deck.name if deck else None, "made_for_tests": bool(deck and deck.made_for_tests)}
    table = tables.create_table(game, SYSTEM, title, sides, user, setup=setup, seed=seed)
    with tables.locked(table.pk) as locked:
        refresh(locked)
    table.refresh_from_db()
    return table


def setup_of(table: Table) -> dict:
    return situation.setup_of(table.setup, list(table.sides.values_list("key", flat=True)))


def names_of(table: Table) -> dict[str, str]:
    return dict(table.sides.values_list("key", "name"))


def _replay(table: Table, setup: dict, extra: list | None = None) -> dict:
    try:
        return situation.replay(setup, tables.live_steps(table) + list(extra or []))
    except OrdonnanceCaseError as exc:   # the engine's words are English: the page gets a sentence of its own
        if "more copies" in exc.problem:
            raise ValidationError(_("Every copy of this card in the deck list is already on the table (C4)."),
                                  code="invalid") from None
        raise ValidationError(_("The rules do not allow this play."), code="invalid") from None


def refresh(table: Table) -> dict:
    """Replay the live steps into Table.state (inside `locked`)."""
    state = _replay(table, setup_of(table))
    tables.set_state(table, state)
    return state


def _must_be_open(table: Table) -> None:
    if table.status in (Table.FINISHED, Table.CANCELLED):
        raise ValidationError(_("This contest is over: undo the last play to go on."), code="conflict")


def _act(table: Table, user, kind: str, payload: dict, summary: str, *, side: str = "", reason: str = "") -> dict:
    """Record one step if the engine accepts the live steps with it; store the state; finish at the end."""
    setup = setup_of(table)
    seq = tables.next_seq(table)
    state = _replay(table, setup, [{"kind": kind, "payload": payload, "seq": seq}])
    if kind == "play" and len(state["refused"]) > len(table.state.get("refused", [])):
        raise ValidationError(words.refusal(state["refused"][-1]["reason"]), code="conflict")
    event = next((e for e in reversed(state["events"]) if e.get("seq") == seq), None)
    tables.record(table, kind, user, seq=seq, side=side, payload=payload, reason=reason, summary=summary,
                  outcome={"event": event} if event else {})
    tables.set_state(table, state)
    if state.get("game_over") and table.status != Table.FINISHED:
        result = situation.table_result(setup, state)
        names = names_of(table)
        tables.finish(table, result, user, summary=_("Winner: %(name)s.") % {
            "name": names.get(result["winner"]) or pgettext("winner", "nobody")})
    return state


def lot(table_id: int, user, *, first_player: str | None = None) -> dict:
    """The first player of a physical table: drawn by the server (a die on the record) or entered after a lot."""
    with tables.locked(table_id) as table:
        _must_be_open(table)
        setup = setup_of(table)
        if setup["mode"] != situation.PHYSICAL:
            raise ValidationError(_("A virtual deck draws the first player when it deals."), code="conflict")
        if table.state.get("plays"):
            raise ValidationError(_("Cards are already on the table: undo them to draw the lot again."),
                                  code="conflict")
        payload = _lot_dice(table, tables.next_seq(table), setup, first_player, user)
        names = names_of(table)
        return _act(table, user, "lot", payload,
                    _("First player: %(name)s.") % {"name": names.get(payload["first_player"], "")})


def _lot_dice(table: Table, seq: int, setup: dict, first_player: str | None, user) -> dict:
    players = setup["players"]
    if first_player is not None:
        if first_player not in players:
            raise ValidationError(_("There is no such player at this table."), code="invalid")
        die = tables.take_dice(table, seq, hand=[players.index(first_player) + 1], sides=len(players),
                               purpose=_("lot for the first player (by hand)"), user=user)[0]
        return {"first_player": first_player, "how": "hand", "die": die}
    die = tables.take_dice(table, seq, count=1, sides=len(players), purpose=_("lot for the first player"),
                           user=user)[0]
    return {"first_player": players[die - 1], "how": "server", "die": die}


def deal(table_id: int, user, *, first_player: str | None = None) -> dict:
    """A virtual deck: the lot, then the shuffle, every position a server die on the record, then the deal (C5)."""
    with tables.locked(table_id) as table:
        _must_be_open(table)
        setup = setup_of(table)
        if setup["mode"] != situation.VIRTUAL:
            raise ValidationError(_("Only a virtual deck is dealt by the server."), code="conflict")
        if table.state.get("dealt"):
            raise ValidationError(_("The cards are already dealt."), code="conflict")
        seq = tables.next_seq(table)
        payload = _lot_dice(table, seq, setup, first_player, user)
        picks = []
        for i in range(len(setup["deck"]) - 1, 0, -1):   # Fisher-Yates from the last position down
            picks += tables.take_dice(table, seq, count=1, sides=i + 1, user=user,
                                      purpose=_("shuffle: position %(i)s") % {"i": i + 1})
        payload["picks"] = picks
        names = names_of(table)
        return _act(table, user, "deal", payload, _("Cards dealt; first player: %(name)s.") % {
            "name": names.get(payload["first_player"], "")})


def lay(table_id: int, user, seat, *, player: str, territory: int, symbols: list[str] | None = None,
        card: str | None = None, correction: str = "") -> dict:
    """One laid card: entered by the moderator at a physical table, or played from a hand on a tablet.

    At a physical table the card of a player out of turn is refused (C7: the order decides who completes an
    army first, which breaks ties), unless the moderator rules it with a reason: a correction on the record,
    and the turn goes on clockwise from that player."""
    with tables.locked(table_id) as table:
        _must_be_open(table)
        if not seat.may_act_for(player):
            raise ValidationError(_("You may play only for your own side."), code="conflict")
        setup = setup_of(table)
        state = table.state or {}
        if setup["mode"] == situation.PHYSICAL:
            if not seat.moderator:
                raise ValidationError(_("At a physical table the moderator enters the cards."), code="conflict")
            if not state.get("first_player"):
                raise ValidationError(_("Draw the lot for the first player first."), code="conflict")
            if not symbols:
                raise ValidationError(_("Tick the symbols on the card: one to five."), code="invalid")
            played = {"symbols": situation.ordered(symbols)}
            to_move = state.get("to_move")
            correction = (correction or "").strip()
            if to_move and player != to_move and not correction:
                names = names_of(table)
                raise ValidationError(
                    _("It is %(turn)s's turn, not %(name)s's (C7): enter %(turn)s's card, or rule this card out of "
                      "turn and say why.") % {"turn": names.get(to_move, to_move), "name": names.get(player, player)},
                    code="conflict")
            out_of_turn = bool(to_move and player != to_move)
            shown = ", ".join(str(words.SYMBOL_NAMES[s]).lower() for s in played["symbols"])
        else:
            if not state.get("dealt"):
                raise ValidationError(_("The cards are not dealt yet."), code="conflict")
            if not card:
                raise ValidationError(_("Tap a card of the hand first, then a territory."), code="invalid")
            said = words.refusal if seat.moderator else (lambda code: words.plain(words.refusal(code)))
            if state.get("to_move") != player:
                raise ValidationError(said("not_your_turn"), code="conflict")
            hand = state["hands"].get(player, [])
            drawn = state["draw_pile"][0] if state["draw_pile"] else None
            if card not in hand and card != drawn:
                raise ValidationError(said("card_not_in_hand"), code="conflict")
            played = card
            out_of_turn, correction = False, ""
            shown = ", ".join(str(words.SYMBOL_NAMES[s]).lower()
                              for s in situation._card_symbols(card, setup["deck"]))
        names = names_of(table)
        summary = _("%(name)s lays a card (%(symbols)s) in territory %(t)s.") % {
            "name": names.get(player, player), "symbols": shown, "t": territory}
        payload = {"player": player, "territory": territory, "card": played}
        if out_of_turn:
            payload["out_of_turn"] = True
            summary = _("Moderator's ruling, out of turn: %(summary)s") % {"summary": summary}
        return _act(table, user, "play", payload, summary, side=player, reason=correction if out_of_turn else "")


def override_turn(table_id: int, user, *, to_move: str, reason: str) -> dict:
    with tables.locked(table_id) as table:
        _must_be_open(table)
        if not (reason or "").strip():
            raise ValidationError(_("Say why the turn is given to another player."), code="invalid")
        if to_move not in setup_of(table)["players"]:
            raise ValidationError(_("There is no such player at this table."), code="invalid")
        if not table.state.get("first_player"):
            raise ValidationError(_("Nobody has the turn before the lot."), code="conflict")
        names = names_of(table)
        return _act(table, user, "override_turn", {"to_move": to_move},
                    _("the turn goes to %(name)s.") % {"name": names.get(to_move, to_move)}, reason=reason.strip())


def override_end(table_id: int, user, *, reason: str) -> dict:
    """C13 ruling at a physical table: nobody can lay any more; each undecided territory to its strongest army."""
    with tables.locked(table_id) as table:
        _must_be_open(table)
        if not (reason or "").strip():
            raise ValidationError(_("Say why the game ends here."), code="invalid")
        if setup_of(table)["mode"] != situation.PHYSICAL:
            raise ValidationError(_("A virtual game ends by itself when nobody can lay."), code="conflict")
        return _act(table, user, "override_end", {}, _("the game ends at a dead end (C13)."), reason=reason.strip())


def undo(table_id: int, user, *, reason: str) -> None:
    with tables.locked(table_id) as table:
        if table.status == Table.CANCELLED:
            raise ValidationError(_("This table is cancelled."), code="conflict")
        if tables.undo_last(table, user, reason) is None:
            raise ValidationError(_("There is nothing to undo."), code="conflict")
        refresh(table)
