"""Every write to the dice record: committing a seed, rolling, recording hand dice, discarding, revealing.

Rolls take the stream's row lock, so two requests never share a counter and a
re-roll never reuses one.
"""
from __future__ import annotations

import secrets
from typing import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from larp.campaign.audit import audit
from larp.campaign.models import Game
from larp.dice.models import Roll, Stream, fingerprint
from larp.dice.verify import turn_seed
from larp.rules import dice as generator

GAME = "game"


class Revealed(ValidationError):
    """The stream's seed is public: its dice could be foretold, so the server rolls no more of them."""


def turn_label(number: int) -> str:
    return f"turn-{int(number)}"


def commit(game: Game, label: str, seed: int | None = None) -> Stream:
    """Fix a new stream's seed (secret) and its public fingerprint."""
    seed = secrets.randbelow(2**62) if seed is None else int(seed)
    return Stream.objects.create(game=game, label=label, seed=seed, fingerprint=fingerprint(seed))


def game_stream(game: Game) -> Stream:
    """The war's own stream, committed to the game's recorded seed."""
    stream, _created = Stream.objects.get_or_create(
        game=game, label=GAME, defaults={"seed": game.seed, "fingerprint": fingerprint(game.seed)})
    return stream


def turn_stream(game: Game, number: int) -> Stream:
    """The stream of the war's turn `number`: its seed is derived from the game's committed seed
    (`turn_seed`), so the game's one fingerprint commits to every turn's dice (docs/dice.md)."""
    parent = game_stream(game)
    seed = turn_seed(parent.seed, number)
    stream, _created = Stream.objects.get_or_create(
        game=game, label=turn_label(number),
        defaults={"seed": seed, "fingerprint": fingerprint(seed), "revealed_at": parent.revealed_at,
                  "revealed_by": parent.revealed_by})
    return stream


@transaction.atomic
def roll(stream: Stream, count: int, *, sides: int = 6, purpose: str = "", ref: str = "", user=None) -> list[Roll]:
    """`count` server dice from the stream's next counters, stored as used."""
    if not 0 < count <= 200:
        raise ValueError("count out of range")
    locked = Stream.objects.select_for_update().get(pk=stream.pk)
    if locked.revealed:
        raise Revealed(_("The dice seed has been revealed: the server rolls no more dice from it. "
                         "Enter the dice rolled at the table."))
    start = locked.next_counter
    rolls = [Roll(stream=locked, counter=k, sides=sides, value=generator.die(locked.seed, k, sides),
                  source=Roll.SERVER, purpose=purpose[:200], ref=ref[:60],
                  user=user if user and user.is_authenticated else None)
             for k in range(start, start + count)]
    Roll.objects.bulk_create(rolls)
    locked.next_counter = start + count
    locked.save(update_fields=["next_counter"])
    stream.next_counter = locked.next_counter
    return rolls


@transaction.atomic
def record_hand(stream: Stream, values: Iterable[int], *, sides: int = 6, purpose: str = "", ref: str = "",
                user=None) -> list[Roll]:
    """Dice rolled at the table and typed in: stored as such, with no counter."""
    values = [int(v) for v in values]
    if any(not 1 <= v <= sides for v in values):
        raise ValueError("die out of range")
    return Roll.objects.bulk_create([
        Roll(stream=stream, sides=sides, value=v, source=Roll.HAND, purpose=purpose[:200], ref=ref[:60],
             user=user if user and user.is_authenticated else None) for v in values])


def discard(rolls: Iterable[Roll] | None = None, *, stream: Stream | None = None, ref: str = "", reason: str) -> int:
    """Mark rolls discarded (a re-roll or an undone step), keeping them on the record with the reason."""
    if rolls is not None:
        ids = [r.pk for r in rolls]
        return Roll.objects.filter(pk__in=ids, status=Roll.USED).update(status=Roll.DISCARDED, reason=reason)
    return Roll.objects.filter(stream=stream, ref=ref, status=Roll.USED).update(status=Roll.DISCARDED, reason=reason)


@transaction.atomic
def reveal_game(game: Game, user) -> Stream:
    """Reveal the war's seed: the game's stream and every turn's stream derived from it, audited once."""
    stream = game_stream(game)
    locked = Stream.objects.select_for_update().get(pk=stream.pk)
    if locked.revealed_at is None:
        locked.revealed_at = timezone.now()
        locked.revealed_by = user if user and user.is_authenticated else None
        locked.save(update_fields=["revealed_at", "revealed_by"])
        audit(game, user, "dice_revealed", {"stream": GAME, "fingerprint": locked.fingerprint})
    Stream.objects.filter(game=game, label__startswith="turn-", revealed_at__isnull=True).update(
        revealed_at=locked.revealed_at, revealed_by=locked.revealed_by)
    return locked


@transaction.atomic
def reveal(stream: Stream, user) -> Stream:
    """Reveal one stream's seed (a table's; the war's reveals its turns too), audited."""
    if stream.label == GAME:
        return reveal_game(stream.game, user)
    locked = Stream.objects.select_for_update().get(pk=stream.pk)
    if locked.revealed_at is None:
        locked.revealed_at = timezone.now()
        locked.revealed_by = user if user and user.is_authenticated else None
        locked.save(update_fields=["revealed_at", "revealed_by"])
        audit(locked.game, user, "dice_revealed", {"stream": locked.label, "fingerprint": locked.fingerprint})
    return locked
