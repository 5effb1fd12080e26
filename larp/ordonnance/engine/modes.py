"""The five modes of the engine contract (docs/ordonnance.md, "Engine contract"): case in, result out."""
from __future__ import annotations

from collections import Counter
from typing import Any

from . import parse as p
from . import seeded
from .army import counts_of, describe
from .data import Rules
from .outcomes import MoveResult, Reason
from .parse import fail
from .table import Table
from .territory import Entry, analyse

COMPLETED_AT = (1, 1_000_000_000)


def army(data: Any) -> dict:
    """`ordonnance.army`: one army's counts, combinations and key (C9, C10)."""
    case = p.obj(data, "case", ("cards", "rules"))
    rules = p.rules_of(case)
    cards = p.array(p.required(case, "cards", "case"), "cards", 0, rules.cards_per_army)
    masks = [p.card(c, f"cards[{i}]", rules, None, None)[0] for i, c in enumerate(cards)]
    return {"size": len(masks), "complete": len(masks) == rules.cards_per_army,
            **describe(rules, counts_of(rules, masks))}


def _pool(value: Any, rules: Rules) -> dict[int, int] | None:
    if value is None:
        return None
    pool: dict[int, int] = {}
    for i, c in enumerate(p.array(value, "pool", 0, p.MAX_DECK)):
        mask = p.card(c, f"pool[{i}]", rules, None, None)[0]
        pool[mask] = pool.get(mask, 0) + 1
    return pool


def territory(data: Any) -> dict:
    """`ordonnance.territory`: rank the armies of one territory and decide it if C11 allows."""
    case = p.obj(data, "case", ("armies", "pool", "rules"))
    rules = p.rules_of(case)
    raw = p.array(p.required(case, "armies", "case"), "armies", rules.players_min, rules.players_max)
    entries: list[Entry] = []
    seen_players: set[str] = set()
    seen_completions: dict[int, str] = {}
    for i, value in enumerate(raw):
        where = f"armies[{i}]"
        entry = p.obj(value, where, ("player", "cards", "completed_at"))
        player = p.ident(p.required(entry, "player", where), f"{where}.player")
        if player in seen_players:
            fail(f"{where}.player", f"player {player!r} has two armies in one territory")
        seen_players.add(player)
        cards = p.array(p.required(entry, "cards", where), f"{where}.cards", 0, rules.cards_per_army)
        masks = tuple(p.card(c, f"{where}.cards[{j}]", rules, None, None)[0] for j, c in enumerate(cards))
        completed_at = entry.get("completed_at")
        if len(masks) == rules.cards_per_army:
            if completed_at is None:
                fail(f"{where}.completed_at", f"required for an army of {rules.cards_per_army} cards")
            p.integer(completed_at, f"{where}.completed_at", *COMPLETED_AT)
            if completed_at in seen_completions:
                fail(f"{where}.completed_at", f"{completed_at} is also {seen_completions[completed_at]}'s: "
                     "one play completes one army")
            seen_completions[completed_at] = player
        elif completed_at is not None:
            fail(f"{where}.completed_at", f"only an army of {rules.cards_per_army} cards has one")
        entries.append(Entry(player, masks, completed_at))
    return analyse(rules, entries, _pool(case.get("pool"), rules))


def _plays(value: Any, rules: Rules, seats: tuple[str, ...], deck: p.Deck | None,
           ids_only: bool) -> list[tuple[str, int, int, str | None]]:
    """(player, territory, mask, card id) of every play of a log; the same card id never twice."""
    index = deck.index() if deck is not None else None
    out, laid_ids = [], set()
    for i, value in enumerate(p.array(value, "plays")):
        where = f"plays[{i}]"
        play = p.obj(value, where, ("player", "territory", "card"))
        player = p.player(p.required(play, "player", where), f"{where}.player", seats)
        t = p.territory(p.required(play, "territory", where), f"{where}.territory", rules)
        card = p.required(play, "card", where)
        if ids_only and not isinstance(card, str):
            fail(f"{where}.card", "must be a card id of the deck in this mode")
        mask, cid = p.card(card, f"{where}.card", rules, deck, index)
        if isinstance(card, str):
            if cid in laid_ids:
                fail(f"{where}.card", f"card {cid!r} is already on the table")
            laid_ids.add(cid)
        out.append((player, t, mask, cid if isinstance(card, str) else None))
    return out


def contest(data: Any) -> dict:
    """`ordonnance.contest`: replay a physical table's log (C8, C11-C16); turn order is not checked."""
    case = p.obj(data, "case", ("players", "deck", "plays", "rules"))
    rules = p.rules_of(case)
    seats = p.players(p.required(case, "players", "case"), rules)
    deck = p.deck(case, rules, need_ids=False)
    plays = _plays(p.required(case, "plays", "case"), rules, seats, deck, ids_only=False)
    table = Table(rules, seats, deck)
    refused = []
    for number, (player, t, mask, _cid) in enumerate(plays, start=1):
        reason = table.refusal(player, t)
        if reason is not None:
            refused.append({"play": number, "player": player, "territory": t,
                            "reason": reason.value, "rule": reason.rule})
            continue
        table.lay(number, player, t, mask, f"plays[{number - 1}].card")
    return {"refused": refused, **table.result()}


def _optional_seed(case: dict) -> int | None:
    seed = case.get("seed")
    return None if seed is None else p.integer(seed, "seed", *p.SEED)


def deal(data: Any) -> dict:
    """`ordonnance.deal`: the lot, the shuffle and the deal of a virtual deck (C5)."""
    case = p.obj(data, "case", ("players", "deck", "order", "seed", "first_player", "rules"))
    rules = p.rules_of(case)
    seats = p.players(p.required(case, "players", "case"), rules)
    deck = p.deck(case, rules, need_ids=True)
    ids = list(deck.ids)
    seed = _optional_seed(case)
    needed = rules.hand_size * len(seats)
    if len(ids) < needed:
        fail("deck", f"{len(ids)} cards cannot deal {rules.hand_size} to each of {len(seats)} players (C5)")
    first = case.get("first_player")
    if first is None:
        if seed is None:
            fail("first_player", "missing: give the first player, or a seed to draw the lot (C5)")
        first = seeded.lot(seed, seats)
    else:
        first = p.player(first, "first_player", seats)
    order = case.get("order")
    if order is None:
        if seed is None:
            fail("order", "missing: give the deck's order, or a seed to shuffle it (C5)")
        order = seeded.shuffled(seed, ids)
    else:
        p.array(order, "order", 0, p.MAX_DECK)
        for i, cid in enumerate(order):
            p.ident(cid, f"order[{i}]")
        if sorted(order) != sorted(ids):
            fail("order", "must list every card id of the deck exactly once")
    start = seats.index(first)
    turn = seats[start:] + seats[:start]
    hands: dict[str, list[str]] = {s: [] for s in seats}
    for n, cid in enumerate(order[:needed]):   # one card at a time, clockwise from the first player
        hands[turn[n % len(seats)]].append(cid)
    return {"first_player": first, "to_move": first, "seed": seed, "order": list(order),
            "hands": hands, "draw_pile": list(order[needed:])}


def _id_list(value: Any, where: str, index: dict[str, int]) -> list[str]:
    out = []
    for i, cid in enumerate(p.array(value, where, 0, p.MAX_DECK)):
        p.ident(cid, f"{where}[{i}]")
        if cid not in index:
            fail(f"{where}[{i}]", f"no card {cid!r} in the deck")
        out.append(cid)
    return out


def play(data: Any) -> dict:
    """`ordonnance.play`: apply moves to a virtual game, enforcing the turn (C7-C13)."""
    case = p.obj(data, "case", ("players", "deck", "draw_pile", "hands", "plays", "to_move", "moves", "rules"))
    rules = p.rules_of(case)
    seats = p.players(p.required(case, "players", "case"), rules)
    deck = p.deck(case, rules, need_ids=True)
    index = deck.index()
    pile = _id_list(p.required(case, "draw_pile", "case"), "draw_pile", index)
    hands_raw = p.obj(p.required(case, "hands", "case"), "hands", seats)
    hands = {s: _id_list(p.required(hands_raw, s, "hands"), f"hands.{s}", index) for s in seats}
    log = _plays(p.required(case, "plays", "case"), rules, seats, deck, ids_only=True)
    placed = pile + [c for s in seats for c in hands[s]] + [cid for *_, cid in log]
    if len(placed) != len(set(placed)) or set(placed) != set(index):
        missing = sorted(set(index) - set(placed))[:3]
        twice = sorted(c for c, n in Counter(placed).items() if n > 1)[:3]
        fail("deck", "every card id must be in exactly one place (draw_pile, a hand or plays); "
             + (f"nowhere: {', '.join(missing)}" if missing else f"twice: {', '.join(twice)}"))
    moves = []
    for i, value in enumerate(p.array(p.required(case, "moves", "case"), "moves")):
        where = f"moves[{i}]"
        move = p.obj(value, where, ("player", "card", "territory"))
        card = p.ident(p.required(move, "card", where), f"{where}.card")
        if card not in index:
            fail(f"{where}.card", f"no card {card!r} in the deck")
        moves.append((p.player(p.required(move, "player", where), f"{where}.player", seats), card,
                      p.territory(p.required(move, "territory", where), f"{where}.territory", rules)))

    table = Table(rules, seats, deck)
    plays_out = []
    for number, (player, t, mask, cid) in enumerate(log, start=1):
        reason = table.refusal(player, t)
        if reason is not None:
            fail(f"plays[{number - 1}]", f"this play is refused ({reason.value}, {reason.rule}): "
                 "the log of a virtual game holds laid cards only")
        table.lay(number, player, t, mask, f"plays[{number - 1}].card")
        plays_out.append({"player": player, "territory": t, "card": cid})

    def can_lay(s: str) -> bool:
        return table.can_lay_somewhere(s) and bool(hands[s] or pile)

    if not table.game_over and not any(can_lay(s) for s in seats):
        table.end_in_dead_end()
    to_move = case.get("to_move")
    if to_move is None:
        if not table.game_over:
            fail("to_move", "null only when the game is over (C13)")
    else:
        to_move = p.player(to_move, "to_move", seats)
        if not table.game_over and not can_lay(to_move):
            fail("to_move", f"{to_move!r} cannot lay a card; the turn passes to the next who can (C7)")

    events = []
    for n, (player, card, t) in enumerate(moves, start=1):
        event: dict = {"move": n, "player": player, "card": card, "territory": t}
        reason, drawn = None, None
        if table.game_over:
            reason = Reason.GAME_OVER
        elif player != to_move:
            reason = Reason.NOT_YOUR_TURN
        else:
            drawn = pile[0] if pile else None
            if card not in hands[player] and card != drawn:
                reason = Reason.CARD_NOT_IN_HAND
            elif not table.has_room(player, t):
                reason = Reason.TERRITORY_FULL
        if reason is not None:   # refused: nothing changes, the draw included
            events.append({**event, "result": MoveResult.REFUSED.value, "reason": reason.value,
                           "rule": reason.rule})
            continue
        if drawn is not None:
            pile.pop(0)
            hands[player].append(drawn)
        hands[player].remove(card)
        number = len(plays_out) + 1
        laid = table.lay(number, player, t, deck.masks[index[card]], f"moves[{n - 1}].card")
        plays_out.append({"player": player, "territory": t, "card": card})
        passed = []
        to_move = None
        if not table.game_over:
            start = seats.index(player)
            for k in range(1, len(seats) + 1):
                candidate = seats[(start + k) % len(seats)]
                if can_lay(candidate):
                    to_move = candidate
                    break
                passed.append(candidate)
            if to_move is None:   # C13 ruling: a dead end; the awards come with this play
                ended = table.end_in_dead_end()
                laid = {"markers": laid["markers"] + ended["markers"],
                        "defeat_markers": laid["defeat_markers"] + ended["defeat_markers"]}
        events.append({**event, "result": MoveResult.LAID.value, "drew": drawn, "play": number,
                       **laid, "passed": passed})
    state = {"draw_pile": pile, "hands": hands, "plays": plays_out, "to_move": to_move}
    return {"refused": [], **table.result(), "events": events, "state": state, "dead_end": table.dead_end}
