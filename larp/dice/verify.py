"""Checking the dice record against the revealed seeds: a pure function over plain data (docs/dice.md).

`check_game(war, tables)` takes what the record says (plain dataclasses, no
database) and recomputes every server die from the revealed seed:

- the revealed secret matches the fingerprint committed at the start;
- the seed is `mixed_seed(secret, contributions)` over the contributions as
  recorded, none of them later than the close and all of them those the close
  published (`contributions_digest`); a seed set by hand is the secret itself,
  and its line says the dice are not random;
- every server die equals `larp.rules.dice.die(seed, counter, sides)` (for the
  war, the seed of turn t is derived from the game's seed, `turn_seed`);
- the counters of each stream are 0, 1, ... next_counter - 1, none missing,
  none used twice, none beyond;
- for the war, each confirmed battle's dice are the record's (a server battle's
  dice are the server dice at its counters, as recomputed);
- each draw by lot from the game's seed is the seed's.

It gives one `Line` per game (the war), per draw and per table, each either
«всё сходится» or a list of exactly which rolls do not match. Used by the
command `verify_dice` and the verify page alike.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from hashlib import sha256
from typing import Callable, Iterable, Sequence

from django.utils.translation import gettext as _

from larp.rules.dice import contributions_digest, die, draw, mixed_seed

SERVER, HAND = "server", "hand"
MAX_LISTED = 12  # problems named one by one on a line; the rest are counted


def fingerprint(seed: int) -> str:
    """The public commitment to a seed: SHA-256 of its decimal digits, as hex (as larp.dice.models)."""
    return sha256(str(int(seed)).encode()).hexdigest()


def turn_seed(game_seed: int, turn: int) -> int:
    """The seed of the war's turn `turn` (larp/engine/dice.py: the same formula)."""
    return draw(game_seed, f"turn:{turn}") >> 1


def draw_seed(game_seed: int, number: int) -> int:
    """The seed of the game's draw number `number` (0: the game's own seed; a redraw takes the next number)."""
    return game_seed if number == 0 else draw(game_seed, f"draw:{number}") >> 1


def seeded_draw(seed: int, codes: Iterable[str]) -> list[str]:
    """The draw of the factions from a seed (larp/turns/services.py: the same formula)."""
    return sorted(codes, key=lambda code: (sha256(f"{seed}:draw:{code}".encode()).digest(), code))


# --- what the record says ------------------------------------------------------------------------

@dataclass(frozen=True)
class RollRecord:
    counter: int | None
    value: int
    source: str = SERVER
    sides: int = 6
    where: str = ""          # in words: "turn 3, battle 2" / "step 4"
    status: str = "used"
    ref: str = ""            # what it was for, as stored: "turn-3:battle-2" / "table-5:step-4"


@dataclass(frozen=True)
class ContributionRecord:
    who: str                 # the seat: a faction's id, a table side's key
    value: str               # 64 hex digits
    name: str = ""           # the seat as shown
    late: bool = False       # recorded after the close


@dataclass(frozen=True)
class Seeding:
    """How a stream's seed was made: from the secret alone (set by hand, or before contributions existed) or
    mixed with the players' contributions, closed with a published digest."""
    mixed: bool = False
    chosen: bool = False
    contributions: Sequence[ContributionRecord] = ()
    digest: str = ""         # published at the close ("" if the set is still open)

    def seed(self, secret: int) -> int:
        if not self.mixed:
            return secret
        return mixed_seed(secret, [(c.who, c.value) for c in self.contributions if not c.late])

    def problems(self) -> list[str]:
        out = [_("%(who)s: the contribution was recorded after the close") % {"who": c.name or c.who}
               for c in self.contributions if c.late]
        pairs = [(c.who, c.value) for c in self.contributions if not c.late]
        if self.mixed and self.digest and contributions_digest(pairs) != self.digest:
            out.append(_("the players' contributions are not those published at the close"))
        return out


@dataclass(frozen=True)
class StreamRecord:
    name: str                # shown: "the war, turn 3" or a table's title
    fingerprint: str         # the committed fingerprint
    seed: int | None         # the revealed secret (None: not revealed); the dice's seed is `seeding.seed(secret)`
    next_counter: int
    rolls: Sequence[RollRecord] = ()
    seeding: Seeding = Seeding()


@dataclass(frozen=True)
class BattleRecord:
    """One confirmed battle of the war: the dice the turn used, and where they came from."""
    turn: int
    battle: int
    source: str              # SERVER or HAND
    attacker: Sequence[int]
    defender: Sequence[int]
    counter: int | None = None   # a server battle's first counter (attacker's dice, then the defender's)


@dataclass(frozen=True)
class DrawRecord:
    number: int | None       # the draw's number from the game's seed; None: by hand (or a seed not derived)
    codes: Sequence[str]     # the factions drawn
    order: Sequence[str]     # the order as recorded
    manual: bool = False


@dataclass(frozen=True)
class WarRecord:
    fingerprint: str
    seed: int | None
    turns: dict[int, StreamRecord] = field(default_factory=dict)     # turn number -> its stream
    battles: Sequence[BattleRecord] = ()
    draws: Sequence[DrawRecord] = ()
    name: str = ""
    seeding: Seeding = Seeding()


# --- what the check says -------------------------------------------------------------------------

@dataclass
class Line:
    name: str
    revealed: bool
    fingerprint: str
    problems: list[str] = field(default_factory=list)
    note: str = ""           # e.g. "by hand", or how many dice were checked
    chosen: bool = False     # the seed was set by hand: the dice are not random

    @property
    def ok(self) -> bool:
        return self.revealed and not self.problems

    def text(self) -> str:
        text = self._text()
        return f"{text.rstrip('.')}. {chosen_note()}" if self.chosen else text

    def _text(self) -> str:
        if not self.revealed:
            return _("%(name)s: the seed is not revealed yet; fingerprint %(fp)s") % {
                "name": self.name, "fp": self.fingerprint}
        if self.ok:
            return "%s: %s" % (self.name, _("everything matches")) + (f" ({self.note})" if self.note else "")
        shown = self.problems[:MAX_LISTED]
        more = len(self.problems) - len(shown)
        tail = ("; " + _("more problems: %(n)s") % {"n": more}) if more else ""
        return "%s: %s" % (self.name, _("does not match")) + ": " + "; ".join(shown) + tail


def chosen_note() -> str:
    """What every page, paper and the command say of a seed set by hand."""
    return _("Note: the seed was set by hand — the dice are not random.")


def check_stream(stream: StreamRecord, seed_of: Callable[[int], int] | None = None, *,
                 check_fingerprint: bool = True, where: str = "") -> list[str]:
    """The problems of one stream: fingerprint, every server die recomputed, counters contiguous.

    `seed_of(seed)` derives the seed the dice were rolled from (the war's turns, whose fingerprint is the
    game's and is checked once for the game)."""
    problems = []
    if stream.seed is None:
        return problems
    if check_fingerprint and fingerprint(stream.seed) != stream.fingerprint:
        problems.append(_("the revealed seed does not give the committed fingerprint"))
    if check_fingerprint:
        problems += stream.seeding.problems()
    rolled_from = seed_of(stream.seed) if seed_of else stream.seeding.seed(stream.seed)
    seen: dict[int, RollRecord] = {}
    for r in stream.rolls:
        if r.source != SERVER:
            continue
        if r.counter is None:
            problems.append(_("%(where)s: a server die without a counter (stored %(stored)s)")
                            % {"where": r.where or "?", "stored": r.value})
            continue
        if r.counter in seen:
            problems.append(_("%(where)s, counter %(k)s: the counter is used twice") % {"where": r.where or "?",
                                                                                        "k": r.counter})
            continue
        seen[r.counter] = r
        if r.counter >= stream.next_counter:
            problems.append(_("%(where)s, counter %(k)s: beyond the stream's last counter (%(last)s)")
                            % {"where": r.where or "?", "k": r.counter, "last": stream.next_counter - 1})
        expected = die(rolled_from, r.counter, r.sides)
        if expected != r.value:
            problems.append(_("%(where)s, counter %(k)s: stored %(stored)s, recomputed %(expected)s")
                            % {"where": r.where or "?", "k": r.counter, "stored": r.value, "expected": expected})
    for k in range(stream.next_counter):
        if k not in seen:
            text = _("counter %(k)s: missing from the record (recomputed %(expected)s)") % {
                "k": k, "expected": die(rolled_from, k)}
            problems.append(f"{where}, {text}" if where else text)
    return problems


def _battle_where(turn: int, battle: int) -> str:
    return _("turn %(t)s, battle %(b)s") % {"t": turn, "b": battle}


def check_war(war: WarRecord) -> Line:
    """The war's line: every turn's stream, and each confirmed battle's dice against the record."""
    line = Line(war.name or _("The war"), war.seed is not None, war.fingerprint, chosen=war.seeding.chosen)
    if war.seed is None:
        return line
    if fingerprint(war.seed) != war.fingerprint:
        line.problems.append(_("the revealed seed does not give the committed fingerprint"))
    line.problems += war.seeding.problems()
    base = war.seeding.seed(war.seed)
    checked = 0
    for number, stream in sorted(war.turns.items()):
        derived = turn_seed(base, number)
        if stream.fingerprint and stream.fingerprint != fingerprint(derived):
            line.problems.append(_("turn %(t)s: its dice were not rolled from the game's seed") % {"t": number})
        as_revealed = StreamRecord(stream.name, war.fingerprint, base, stream.next_counter, stream.rolls)
        line.problems += check_stream(as_revealed, lambda s, t=number: turn_seed(s, t), check_fingerprint=False,
                                      where=_("turn %(t)s") % {"t": number})
        checked += sum(1 for r in stream.rolls if r.source == SERVER)
    for b in war.battles:
        where = _battle_where(b.turn, b.battle)
        if b.source != SERVER:
            stream = war.turns.get(b.turn)
            ref = f"turn-{b.turn}:battle-{b.battle}"
            typed = [r.value for r in (stream.rolls if stream else ()) if r.source == HAND and r.ref == ref
                     and r.status == "used"]
            used = [*b.attacker, *b.defender]
            if typed != used:
                line.problems.append(_("%(where)s: the battle used %(used)s by hand, the record has %(stored)s")
                                     % {"where": where, "used": " ".join(map(str, used)) or "—",
                                        "stored": " ".join(map(str, typed)) or "—"})
            continue
        if b.counter is None:
            line.problems.append(_("%(where)s: server dice without counters") % {"where": where})
            continue
        seed = turn_seed(base, b.turn)
        used = [*b.attacker, *b.defender]
        expected = [die(seed, b.counter + i) for i in range(len(used))]
        stream = war.turns.get(b.turn)
        stored = {r.counter: r.value for r in (stream.rolls if stream else ()) if r.source == SERVER}
        for i, (u, e) in enumerate(zip(used, expected)):
            k = b.counter + i
            if u != e:
                line.problems.append(_("%(where)s, counter %(k)s: the battle used %(stored)s, recomputed "
                                       "%(expected)s") % {"where": where, "k": k, "stored": u, "expected": e})
            elif k not in stored:
                line.problems.append(_("%(where)s, counter %(k)s: the battle's die is missing from the record")
                                     % {"where": where, "k": k})
    hand = sum(1 for b in war.battles if b.source == HAND)
    line.note = _("server dice checked: %(n)s") % {"n": checked} + _contributed(war.seeding)
    if hand:
        line.note += "; " + _("battles with dice by hand: %(n)s") % {"n": hand}
    return line


def check_draws(war: WarRecord) -> Line | None:
    """The draw's line: each draw by lot recomputed from the game's seed; a draw by hand is said to be one."""
    if not war.draws:
        return None
    line = Line(_("The draw"), war.seed is not None, war.fingerprint, chosen=war.seeding.chosen)
    if war.seed is None:
        return line
    base = war.seeding.seed(war.seed)
    by_hand = 0
    for i, d in enumerate(war.draws, 1):
        if d.manual:
            by_hand += 1
            continue
        if d.number is None:
            line.problems.append(_("draw %(i)s: drawn from a seed that was not committed at the start")
                                 % {"i": i})
            continue
        expected = seeded_draw(draw_seed(base, d.number), d.codes)
        if list(expected) != list(d.order):
            line.problems.append(_("draw %(i)s: recorded %(stored)s, recomputed %(expected)s") % {
                "i": i, "stored": ", ".join(d.order), "expected": ", ".join(expected)})
    if by_hand:
        line.note = _("draws made by hand, not from the seed: %(n)s") % {"n": by_hand}
    return line


def check_table(stream: StreamRecord) -> Line:
    line = Line(stream.name, stream.seed is not None, stream.fingerprint, chosen=stream.seeding.chosen)
    if stream.seed is None:
        return line
    line.problems = check_stream(stream)
    server = sum(1 for r in stream.rolls if r.source == SERVER)
    hand = len(stream.rolls) - server
    line.note = _("server dice checked: %(n)s") % {"n": server} + _contributed(stream.seeding)
    if hand:
        line.note += "; " + _("dice by hand: %(n)s") % {"n": hand}
    return line


def _contributed(seeding: Seeding) -> str:
    if not seeding.mixed:
        return ""
    seats = sorted({c.name or c.who for c in seeding.contributions if not c.late})
    if not seats:
        return "; " + _("no player added randomness: the seed is the server's alone")
    return "; " + _("randomness added by: %(seats)s") % {"seats": ", ".join(seats)}


def check_game(war: WarRecord | None, tables: Iterable[StreamRecord] = ()) -> list[Line]:
    """One line for the war, one for the draws (if any), one per table."""
    lines = []
    if war is not None:
        lines.append(check_war(war))
        draws = check_draws(war)
        if draws is not None:
            lines.append(draws)
    lines += [check_table(t) for t in tables]
    return lines
