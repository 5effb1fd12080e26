"""Reads of the dice record for pages and the command: fingerprints, streams, and the check (docs/dice.md)."""
from __future__ import annotations

import re

from django.utils.translation import gettext as _

from larp.campaign.models import AuditEntry, Game
from larp.dice import registry, verify
from larp.dice.models import Roll, Stream, fingerprint
from larp.dice.services import GAME

_WAR_REF = re.compile(r"^turn-(\d+):battle-(\d+)")
_TABLE_REF = re.compile(r"^table-\d+:step-(\d+)")
_TURN_LABEL = re.compile(r"^turn-(\d+)$")


def game_fingerprint(game: Game) -> str:
    """The war's committed fingerprint (the game's stream; before it exists, the same: it commits to game.seed)."""
    stream = Stream.objects.filter(game=game, label=GAME).only("fingerprint").first()
    return stream.fingerprint if stream else fingerprint(game.seed)


def war_revealed(game: Game) -> bool:
    return Stream.objects.filter(game=game, label=GAME, revealed_at__isnull=False).exists()


def where(ref: str, purpose: str = "") -> str:
    """A roll's place in words: «ход 3, бой 2» for the war, «шаг 4» at a table."""
    m = _WAR_REF.match(ref or "")
    if m:
        return _("turn %(t)s, battle %(b)s") % {"t": m.group(1), "b": m.group(2)}
    m = _TABLE_REF.match(ref or "")
    if m:
        return _("step %(s)s") % {"s": m.group(1)}
    return purpose or ref or "?"


def _rolls(stream: Stream) -> list[verify.RollRecord]:
    return [verify.RollRecord(r.counter, r.value, r.source, r.sides, where(r.ref, r.purpose), r.status, r.ref)
            for r in Roll.objects.filter(stream=stream).order_by("pk")]


def _table_name(label: str, names: dict[str, str]) -> str:
    return names.get(label) or _("Table %(n)s") % {"n": label.removeprefix("table-")}


def table_streams(game: Game) -> list[Stream]:
    return [s for s in Stream.objects.filter(game=game).order_by("created_at", "pk")
            if s.label != GAME and not _TURN_LABEL.match(s.label)]


def _draws(game: Game, war_seed: int) -> list[verify.DrawRecord]:
    """Every draw of the game as its audit entry records it: by lot (with its number) or by hand."""
    out = []
    for entry in AuditEntry.objects.filter(game=game, action="draw").order_by("at", "pk"):
        d = entry.detail or {}
        order = [str(c) for c in d.get("draw") or []]
        if d.get("manual"):
            out.append(verify.DrawRecord(None, sorted(order), order, manual=True))
            continue
        number = d.get("no")
        if number is None and d.get("seed") == war_seed:  # recorded before draws were numbered
            number = 0
        out.append(verify.DrawRecord(number, sorted(order), order))
    return out


def record(game: Game) -> tuple[verify.WarRecord, list[verify.StreamRecord]]:
    """The game's dice record as plain data for `verify.check_game`; a seed only where it is revealed."""
    streams = list(Stream.objects.filter(game=game).order_by("created_at", "pk"))
    war = next((s for s in streams if s.label == GAME), None)
    war_seed = war.seed if war and war.revealed else None
    turns = {}
    for s in streams:
        m = _TURN_LABEL.match(s.label)
        if m:
            turns[int(m.group(1))] = verify.StreamRecord(_("turn %(t)s") % {"t": m.group(1)}, s.fingerprint,
                                                         None, s.next_counter, _rolls(s))
    war_record = verify.WarRecord(
        fingerprint=war.fingerprint if war else fingerprint(game.seed), seed=war_seed, turns=turns,
        battles=registry.war_battles(game) if war_seed is not None else [],
        draws=_draws(game, war_seed) if war_seed is not None else [], name=_("The war"))
    names = registry.names(game)
    tables = [verify.StreamRecord(_table_name(s.label, names), s.fingerprint, s.seed if s.revealed else None,
                                  s.next_counter, _rolls(s) if s.revealed else [])
              for s in streams if s.label != GAME and not _TURN_LABEL.match(s.label)]
    return war_record, tables


def check(game: Game) -> list[verify.Line]:
    war, tables = record(game)
    return verify.check_game(war, tables)


def page(game: Game) -> dict:
    """The verify page: each stream's fingerprint and, once revealed, its seed and its line of the check."""
    war, tables = record(game)
    lines = verify.check_game(war, tables)
    streams = {s.label: s for s in Stream.objects.filter(game=game)}
    game_stream = streams.get(GAME)
    rows = [{"label": GAME, "name": lines[0].name, "fingerprint": war.fingerprint, "line": lines[0],
             "seed": game_stream.seed if game_stream and game_stream.revealed else None,
             "revealed_at": game_stream.revealed_at if game_stream else None, "war": True}]
    rest = lines[1:]
    if war.draws:
        rows.append({"label": "draw", "name": rest[0].name, "line": rest[0], "draw": True,
                     "fingerprint": war.fingerprint})
        rest = rest[1:]
    for s, line in zip(table_streams(game), rest):
        rows.append({"label": s.label, "name": line.name, "fingerprint": s.fingerprint, "line": line,
                     "seed": s.seed if s.revealed else None, "revealed_at": s.revealed_at, "stream": s})
    return {"rows": rows, "all_ok": all(r["line"].ok for r in rows),
            "any_revealed": any(r["line"].revealed for r in rows)}
