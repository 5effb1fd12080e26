"""Reads of the dice record for pages and the command: fingerprints, streams, and the check (docs/dice.md)."""
from __future__ import annotations

import re

from django.utils.translation import gettext as _

from larp.campaign.access import is_moderator, player_faction
from larp.campaign.models import AuditEntry, Game
from larp.dice import registry, verify
from larp.dice.models import Contribution, Roll, Stream
from larp.dice.services import GAME, game_stream

_WAR_REF = re.compile(r"^turn-(\d+):battle-(\d+)")
_TABLE_REF = re.compile(r"^table-\d+:step-(\d+)")
_TURN_LABEL = re.compile(r"^turn-(\d+)$")


def game_fingerprint(game: Game) -> str:
    """The war's committed fingerprint (the game's stream, committed now if the game was made without one)."""
    stream = Stream.objects.filter(game=game, label=GAME).only("fingerprint").first()
    return stream.fingerprint if stream else game_stream(game).fingerprint


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


def seeding(stream: Stream | None) -> verify.Seeding:
    """How the stream's seed is made, as plain data: the contributions as recorded, each marked late if it came
    after the close."""
    if stream is None:
        return verify.Seeding()
    contributions = [verify.ContributionRecord(c.who, c.value, c.name,
                                               late=bool(stream.closed_at and c.at > stream.closed_at))
                     for c in Contribution.objects.filter(stream=stream).order_by("at", "pk")]
    return verify.Seeding(stream.mixed, stream.chosen, contributions, stream.contributions_digest)


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
    war_seed = war.secret if war and war.revealed else None
    turns = {}
    for s in streams:
        m = _TURN_LABEL.match(s.label)
        if m:
            turns[int(m.group(1))] = verify.StreamRecord(_("turn %(t)s") % {"t": m.group(1)}, s.fingerprint,
                                                         None, s.next_counter, _rolls(s))
    war_record = verify.WarRecord(
        fingerprint=war.fingerprint if war else game_fingerprint(game), seed=war_seed, turns=turns,
        battles=registry.war_battles(game) if war_seed is not None else [],
        draws=_draws(game, war_seed) if war_seed is not None else [], name=_("The war"), seeding=seeding(war))
    names = registry.names(game)
    tables = [verify.StreamRecord(_table_name(s.label, names), s.fingerprint, s.secret if s.revealed else None,
                                  s.next_counter, _rolls(s) if s.revealed else [], seeding(s))
              for s in streams if s.label != GAME and not _TURN_LABEL.match(s.label)]
    return war_record, tables


def check(game: Game) -> list[verify.Line]:
    war, tables = record(game)
    return verify.check_game(war, tables)


def chosen(game: Game) -> bool:
    """Was the war's seed set by hand (its dice are not random)?"""
    return Stream.objects.filter(game=game, label=GAME, chosen=True).exists() or (
        game.seed is not None and not Stream.objects.filter(game=game, label=GAME).exists())


def _contributions(stream: Stream) -> list[dict]:
    return [{"who": c.who, "name": c.name, "value": c.value, "at": c.at, "auto": c.auto,
             "late": bool(stream.closed_at and c.at > stream.closed_at)}
            for c in Contribution.objects.filter(stream=stream).order_by("at", "pk")]


def _dice(streams: list[Stream]) -> list[dict]:
    """Every die of these streams, in the order rolled: numbered from 1 for people (the formula's k is n - 1)."""
    turn_of = {s.pk: (int(m.group(1)) if (m := _TURN_LABEL.match(s.label)) else None) for s in streams}
    return [{"number": r.counter + 1 if r.counter is not None else None, "counter": r.counter, "value": r.value,
             "sides": r.sides, "server": r.source == Roll.SERVER, "where": where(r.ref, r.purpose),
             "purpose": r.purpose, "used": r.status == Roll.USED, "reason": r.reason, "at": r.at,
             "turn": turn_of[r.stream_id]}
            for r in Roll.objects.filter(stream__in=streams).order_by("stream__created_at", "stream_id", "pk")]


def _row(stream: Stream, name: str, line: verify.Line, streams: list[Stream], **extra) -> dict:
    revealed = stream.revealed
    return {"label": stream.label, "name": name, "fingerprint": stream.fingerprint, "line": line,
            "secret": stream.secret if revealed else None, "seed": stream.seed if revealed else None,
            "revealed_at": stream.revealed_at, "closed_at": stream.closed_at, "mixed": stream.mixed,
            "chosen": stream.chosen, "digest": stream.contributions_digest,
            "contributions": _contributions(stream) if stream.mixed else [],
            "dice": _dice(streams), "stream": stream, **extra}


def page(game: Game, user) -> dict:
    """The dice check page for this user: the war and the tables they may open (a moderator all, a player
    their faction's), each with its commitment, the players' contributions, every die, and once revealed
    its secret, seed and line of the check."""
    war, tables = record(game)
    lines = verify.check_game(war, tables)
    streams = list(Stream.objects.filter(game=game).order_by("created_at", "pk"))
    war_stream = next((s for s in streams if s.label == GAME), None) or game_stream(game)
    turns = [s for s in streams if _TURN_LABEL.match(s.label)]
    rows = [_row(war_stream, lines[0].name, lines[0], turns, war=True)]
    rest = lines[1:]
    if war.draws:
        rows.append({"label": "draw", "name": rest[0].name, "line": rest[0], "draw": True,
                     "fingerprint": war.fingerprint, "chosen": war_stream.chosen})
        rest = rest[1:]
    visible = registry.seats(user, game)
    for s, line in zip(table_streams(game), rest):
        if s.label in visible:
            rows.append(_row(s, line.name, line, [s], seat=visible[s.label][0]))
    return {"rows": rows, "all_ok": all(r["line"].ok for r in rows),
            "any_revealed": any(r["line"].revealed for r in rows), "chosen": war_stream.chosen}


def seat(user, game: Game, label: str) -> tuple[str, str] | None:
    """Where this user adds randomness to the stream `label`: (seat, seat's name), or None (a moderator, a
    stranger, a table they do not sit at). The war's seats are the factions; a table's, its sides."""
    if not user.is_authenticated or is_moderator(user, game):
        return None
    if label == GAME:
        faction = player_faction(user, game)
        return (faction.code, faction.name) if faction else None
    who, name = registry.seats(user, game).get(label, (None, ""))
    return (who, name) if who else None


def contribution_status(user, game: Game, label: str) -> dict:
    """What the contribution widget shows: whether this user may add randomness to the stream, whether its set
    is still open, and every contribution so far (public)."""
    stream = Stream.objects.filter(game=game, label=label).first()
    if stream is None and label == GAME:
        stream = game_stream(game)
    where = seat(user, game, label)
    if stream is None:
        return {"open": False, "may": False, "mine": 0, "contributions": []}
    contributions = _contributions(stream)
    open_ = stream.mixed and not stream.chosen and not stream.closed
    return {"open": open_, "chosen": stream.chosen, "may": bool(where and open_), "seat": where[1] if where else "",
            "mine": sum(1 for c in contributions if where and c["who"] == where[0]),
            "contributions": [{"name": c["name"], "value": c["value"], "at": c["at"].isoformat(), "auto": c["auto"]}
                              for c in contributions]}
