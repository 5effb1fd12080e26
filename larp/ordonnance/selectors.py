"""What the pages and the paper show of an «Ордонанс» table, filtered by the seat (the fog, on the server).

Laid cards are public (C8 ruling); hands and the draw pile are secret: a player gets their own
hand only (with the card they are about to draw, on their turn), the others' hands as counts,
the pile as a count; the moderator gets everything; the projector gets the public table.
Nothing here returns an engine id to a template: every name is translated (words.py).
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from larp.campaign.people import person
from larp.tables import services as tables
from larp.tables.models import Table

from . import situation, words
from .models import DeckList

PUBLIC, PLAYER, MODERATOR = "public", "player", "moderator"


def decks(game) -> list[DeckList]:
    return list(DeckList.objects.filter(game=game))


def deck_rows(deck: DeckList) -> list[dict]:
    return [{"index": i, "symbols": symbol_strip(c["symbols"]), "count": c["count"]}
            for i, c in enumerate(deck.cards)]


def symbol_strip(symbols: list[str]) -> list[dict]:
    """A card's strip in rank order (C2): each symbol with its glyph and translated name."""
    return [{"id": s, "glyph": words.SYMBOL_GLYPHS[s], "name": str(words.SYMBOL_NAMES[s])}
            for s in situation.ordered(symbols)]


def territory_label(setup: dict, t: int) -> str:
    name = situation.territory_name(setup, t)
    return _("Territory %(n)s — %(name)s") % {"n": t, "name": name} if name else _("Territory %(n)s") % {"n": t}


def state_of(table: Table, setup: dict) -> dict:
    """The stored state, or the engine's replay when none is stored yet (a table made by the bridge)."""
    if table.state and "result" in table.state:
        return table.state
    return situation.replay(setup, tables.live_steps(table))


def _why_lines(setup, state, t: int, names: dict) -> list[str]:
    why = state.get("why", {}).get(str(t))
    if not why:
        return []
    terr = state["result"]["territories"][t - 1]
    winner = terr["winner"]
    mine = why["armies"].get(winner, {})
    out = []
    for v in why["versus"]:
        other = why["armies"].get(v["player"], {})
        name = names.get(v["player"], "")
        out.append(_("against %(name)s: %(why)s") % {"name": name, "why": words.why(v, mine, other, name)})
    return out


def announcement(setup, state, t: int, names: dict) -> str:
    """«Территория 3 — Анна: полков больше: 2 против 1; маркер победы I»: what the moderator reads out."""
    terr = state["result"]["territories"][t - 1]
    lines = _why_lines(setup, state, t, names)
    return _("%(territory)s — %(name)s: %(why)s; victory marker %(marker)s") % {
        "territory": territory_label(setup, t), "name": names.get(terr["winner"], ""),
        "why": "; ".join(lines) or _("the strongest army"), "marker": words.numeral(terr["marker"])}


def rows(setup: dict, state: dict, names: dict) -> list[dict]:
    """Five rows (territories), one cell per player: cards, n/4, combinations, the marks; leader and markers."""
    out = []
    players = setup["players"]
    for terr in state["result"]["territories"]:
        t = terr["territory"]
        defeated = {d["player"] for d in terr["defeat_markers"]}
        cells = []
        for pl in players:
            army = terr["armies"].get(pl, {})
            cards = [symbol_strip(x["symbols"]) for x in state["plays"] if x["player"] == pl and x["territory"] == t]
            best = army.get("best_completion")
            cells.append({
                "player": pl, "name": names.get(pl, pl), "cards": cards, "size": len(cards),
                "complete": army.get("complete", False), "combinations": words.combinations(army) if cards else [],
                "singles": words.singles(army) if cards else "",
                "can_still_win": army.get("can_still_win", False) and not terr["decided"],
                "best": ({"cards": [symbol_strip(c["symbols"]) for c in best.get("add", [])],
                          "combinations": words.combinations(best)} if best and not army.get("complete") else None),
                "winner": terr["winner"] == pl, "defeated": pl in defeated,
                "points": (terr["points"] or {}).get(pl) if terr["points"] else None,
            })
        out.append({"number": t, "label": territory_label(setup, t), "cells": cells, "decided": terr["decided"],
                    "leader": names.get(terr["leader"]) if terr["leader"] else None,
                    "winner": names.get(terr["winner"]) if terr["winner"] else None,
                    "marker": words.numeral(terr["marker"]), "decided_at": terr["decided_at"],
                    "why": _why_lines(setup, state, t, names) if terr["decided"] else []})
    return out


def standings(setup: dict, state: dict, names: dict) -> dict:
    res = state["result"]
    marks = {m["player"]: [] for m in res["markers"]}
    for m in res["markers"]:
        marks[m["player"]].append(words.numeral(m["marker"]))
    tie_rule = False
    by_count = [s["territories"] for s in res["standings"] if s["territories"]]
    if len(by_count) >= 2 and by_count[0] == by_count[1]:
        tie_rule = True
    return {
        "rows": [{"place": s["place"], "name": names.get(s["player"], s["player"]), "territories": s["territories"],
                  "markers": ", ".join(marks.get(s["player"], [])), "points": res["points"][s["player"]]}
                 for s in res["standings"]],
        "points": [{"label": territory_label(setup, terr["territory"]),
                    "cells": [(terr["points"] or {}).get(pl, "") if terr["points"] else "" for pl in setup["players"]]}
                   for terr in res["territories"]],
        "totals": [res["points"][pl] for pl in setup["players"]],
        # a contest can end (C13) with no complete army anywhere: then nobody wins, said in words, not «None»
        "winner": names.get(res["winner"]) if res["winner"] else (pgettext("winner", "nobody") if res["game_over"] else None),
        "points_winner": (names.get(res["points_winner"]) if res["points_winner"]
                          else (pgettext("winner", "nobody") if res["game_over"] else None)),
        "announce_points": setup.get("announce") == "points",
        "tie_rule": tie_rule, "game_over": res["game_over"],
    }


def _log(table: Table, setup: dict, names: dict, view: str) -> list[dict]:
    out = []
    for step in table.steps.select_related("user").order_by("seq"):
        p = step.payload
        if step.kind == "play":
            symbols = situation._card_symbols(p.get("card"), setup.get("deck"))
            text = _("%(name)s: territory %(t)s") % {"name": names.get(p.get("player"), ""), "t": p.get("territory")}
            if p.get("out_of_turn"):
                text = _("Moderator's ruling, out of turn: %(summary)s") % {"summary": text}
            card = symbol_strip(symbols)
        elif step.kind == "lot":
            how = _("by the server's die") if p.get("how") == "server" else _("after a lot at the table")
            text = _("First player: %(name)s (%(how)s)") % {"name": names.get(p.get("first_player"), ""), "how": how}
            card = None
        elif step.kind == "deal":
            text = _("Cards dealt (%(n)s server dice); first player: %(name)s") % {
                "n": len(p.get("picks", [])) + (1 if p.get("how") == "server" else 0),
                "name": names.get(p.get("first_player"), "")}
            card = None
        elif step.kind == "override_turn":
            text = _("Moderator's ruling: the turn goes to %(name)s") % {"name": names.get(p.get("to_move"), "")}
            card = None
        elif step.kind == "override_end":
            text = _("Moderator's ruling: the game ends at a dead end (C13)")
            card = None
        else:
            text, card = step.kind, None
        event = (step.outcome or {}).get("event") or {}
        markers = [_("victory marker %(m)s: %(t)s, %(name)s") % {
            "m": words.numeral(m["marker"]), "t": territory_label(setup, m["territory"]),
            "name": names.get(m["player"], "")} for m in event.get("markers", [])]
        out.append({"seq": step.seq, "text": text, "card": card, "undone": step.undone,
                    "reason": step.reason, "undone_reason": step.undone_reason,
                    "who": person(step.user) if step.user and view == MODERATOR else "",
                    "at": step.at, "markers": markers, "override": step.kind.startswith("override") or bool(p.get("out_of_turn"))})
    return out


def page(table: Table, seat=None, *, view: str | None = None) -> dict:
    """Everything one page shows, for this seat: `view` is moderator, player (their side) or public."""
    setup = situation.setup_of(table.setup, list(table.sides.values_list("key", flat=True)))
    names = dict(table.sides.values_list("key", "name"))
    state = state_of(table, setup)
    if view is None:
        view = MODERATOR if seat is not None and seat.moderator else PLAYER if seat is not None else PUBLIC
    mine = seat.side_key if (seat is not None and not seat.moderator and view == PLAYER) else None
    res = state["result"]
    announcements = []
    for event in state.get("events", [])[-1:]:   # what the last play decided, to be read out
        for m in event.get("markers", []):
            announcements.append(announcement(setup, state, m["territory"], names))
    virtual = setup["mode"] == situation.VIRTUAL
    data = {
        "setup": setup, "names": names, "virtual": virtual, "view": view, "mine": mine,
        "mine_name": names.get(mine) if mine else None,
        "players": [{"key": k, "name": names.get(k, k)} for k in setup["players"]],
        "rows": rows(setup, state, names), "standings": standings(setup, state, names),
        "to_move": state.get("to_move"), "to_move_name": names.get(state.get("to_move")) if state.get("to_move") else None,
        "first_player": names.get(state.get("first_player")) if state.get("first_player") else None,
        "has_lot": bool(state.get("first_player")), "dealt": state.get("dealt", False),
        "plays": len(state["plays"]), "announcements": announcements, "game_over": res["game_over"],
        "dead_end": state.get("dead_end", False),
        "refused": [{"name": names.get(r["player"], ""), "territory": r["territory"], "why": words.refusal(r["reason"])}
                    for r in state.get("refused", [])],
        "log": _log(table, setup, names, view),
        "pile": len(state.get("draw_pile", [])) if virtual else None,
        "hand_counts": [{"name": names.get(k, k), "count": len(state.get("hands", {}).get(k, []))}
                        for k in setup["players"]] if virtual else [],
        "deck_unknown": setup.get("deck") is None,
        "deck_name": setup.get("deck_name"), "made_for_tests": setup.get("made_for_tests"),
    }
    if view != MODERATOR:   # rule numbers stay on the moderator's screens and paper (players and the hall read words)
        for r in data["refused"]:
            r["why"] = words.plain(r["why"])
        for e in data["log"]:
            e["text"] = words.plain(e["text"])
    if not virtual and setup.get("deck"):   # a physical table with a scenario roster: its kinds, copies left
        kinds: dict[tuple, int] = {}
        for card in setup["deck"]:
            key = tuple(situation.ordered(card["symbols"]))
            kinds[key] = kinds.get(key, 0) + 1
        for play in state["plays"]:
            key = tuple(play["symbols"])
            if key in kinds:
                kinds[key] -= 1
        data["roster"] = [{"symbols": symbol_strip(list(k)), "ids": " ".join(k), "left": n}
                          for k, n in kinds.items() if n > 0]
    if virtual and state.get("dealt"):
        drawn = state["draw_pile"][0] if state["draw_pile"] else None

        def hand_of(key):
            cards = [{"id": c, "symbols": symbol_strip(situation._card_symbols(c, setup["deck"])), "drawn": False}
                     for c in state["hands"].get(key, [])]
            if drawn and state.get("to_move") == key and not res["game_over"]:
                cards.append({"id": drawn, "symbols": symbol_strip(situation._card_symbols(drawn, setup["deck"])),
                              "drawn": True})
            return cards

        room = {k: [t for t in range(1, 6)
                    if sum(1 for x in state["plays"] if x["player"] == k and x["territory"] == t) < 4]
                for k in setup["players"]}
        if mine:
            data["hand"] = hand_of(mine)
            data["my_turn"] = state.get("to_move") == mine and not res["game_over"]
            data["room"] = room[mine]
        if view == MODERATOR:
            data["hands"] = [{"key": k, "name": names.get(k, k), "cards": hand_of(k), "room": room[k],
                              "to_move": state.get("to_move") == k} for k in setup["players"]]
    return data


def head(table: Table, data: dict) -> dict:
    """The moderator page's frame (templates/tables/partials/frame.html): the title, the card being laid, whose
    turn it is, or the winner, and the next act's form on the page."""
    res_over = data["game_over"] or table.status == Table.FINISHED
    plays = data["plays"]
    if res_over:
        st = data["standings"]
        winner = st["points_winner"] if st["announce_points"] else st["winner"]
        return {"title": table.title, "system": _("Ordonnance"), "over": True,
                "round": _("Over after %(n)s cards") % {"n": plays},
                "whose": _("Winner: %(name)s") % {"name": winner or "—"},
                "next": {"label": _("Result"), "anchor": "ord-result"}}
    out = {"title": table.title, "system": _("Ordonnance"), "over": False,
           "round": _("Card %(n)s") % {"n": plays + 1} if data["has_lot"] else _("Before the lot")}
    if not data["has_lot"]:
        out["whose"] = _("The first player is not drawn yet.")
        out["next"] = {"label": _("Deal the cards") if data["virtual"] else _("The first player"), "anchor": "lot"}
    elif data["to_move_name"]:
        out["whose"] = _("Turn: %(name)s") % {"name": data["to_move_name"]}
        out["next"] = ({"label": _("Enter the laid card"), "anchor": "entry"} if not data["virtual"]
                       else {"label": _("Hands"), "anchor": "ord-act"})
    else:
        out["whose"] = _("Nobody can lay a card.")
        out["next"] = None if data["virtual"] else {"label": _("End the game"), "anchor": "end"}
    return out


def protocol(table: Table) -> dict:
    """The contest protocol's data (протокол партии): plain data for the renderer."""
    data = page(table, None, view=MODERATOR)
    data.update({"title": table.title, "symbol_names": [str(words.SYMBOL_NAMES[s]) for s in words.SYMBOLS], "game": table.game.title, "fingerprint": table.dice.fingerprint, "dice_chosen": table.dice.chosen,
                 "status": table.get_status_display(), "players_named": [p["name"] for p in data["players"]],
                 "rolls": [{"counter": r.counter, "sides": r.sides, "value": r.value, "source": r.source,
                            "status": r.status, "purpose": r.purpose} for r in tables.server_rolls(table)]
                 if table.status == Table.FINISHED else []})
    return data


def rules_card(game) -> dict:
    return {"game": game.title, "symbols": [str(words.SYMBOL_NAMES[s]) for s in words.SYMBOLS]}
