"""Every write to the dice record: committing a seed, the players' contributions and the close, rolling,
recording hand dice, discarding, revealing.

Rolls take the stream's row lock, so two requests never share a counter and a
re-roll never reuses one.
"""
from __future__ import annotations

import re
import secrets
from typing import Iterable

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from larp.campaign.audit import audit
from larp.campaign.models import Game
from larp.dice.models import Contribution, Roll, Stream, fingerprint
from larp.dice.verify import turn_seed
from larp.rules import dice as generator

GAME = "game"
SECRET_BITS = 256
MAX_PER_SEAT = 8          # contributions one seat may add to one stream
_HEX = re.compile(r"^[0-9a-f]{64}$")


class Revealed(ValidationError):
    """The stream's seed is public: its dice could be foretold, so the server rolls no more of them."""


def turn_label(number: int) -> str:
    return f"turn-{int(number)}"


def commit(game: Game, label: str, seed: int | None = None) -> Stream:
    """A new stream: a fresh 256-bit secret committed by its fingerprint, open to the players' contributions;
    or, with `seed`, a seed set by hand (marked chosen: its dice are not random), closed at once."""
    if seed is not None:
        return Stream.objects.create(game=game, label=label, secret=int(seed), seed=int(seed),
                                     fingerprint=fingerprint(seed), chosen=True, closed_at=timezone.now())
    secret = secrets.randbits(SECRET_BITS)
    return Stream.objects.create(game=game, label=label, secret=secret, fingerprint=fingerprint(secret), mixed=True)


def game_stream(game: Game) -> Stream:
    """The war's own stream: a fresh commitment, or the seed set by hand on the game (`Game.seed`)."""
    stream = Stream.objects.filter(game=game, label=GAME).first()
    if stream is None:
        try:
            with transaction.atomic():
                stream = commit(game, GAME, game.seed)
        except IntegrityError:  # two first requests at once: the other's commitment stands
            stream = Stream.objects.get(game=game, label=GAME)
    return stream


class Closed(ValidationError):
    """The stream's set of contributions is closed: its seed is fixed."""


def contribute(stream: Stream, who: str, name: str, value: str, *, user=None, auto: bool = False) -> Contribution:
    """A seat's random value (64 hex digits) added to an open stream, published at once."""
    value = (value or "").strip().lower()
    if not _HEX.match(value):
        raise ValidationError(_("A contribution is 64 hexadecimal digits (256 bits)."))
    with transaction.atomic():
        locked = Stream.objects.select_for_update().get(pk=stream.pk)
        if locked.chosen or not locked.mixed:
            raise Closed(_("This seed was set by hand: it takes no contributions."))
        if locked.closed:
            raise Closed(_("The contributions to this seed are closed: its dice are fixed."))
        if Contribution.objects.filter(stream=locked, who=who).count() >= MAX_PER_SEAT:
            raise Closed(_("You have already added your randomness to these dice."))
        return Contribution.objects.create(stream=locked, who=who[:60], name=name[:200], value=value, auto=auto,
                                           user=user if user and user.is_authenticated else None)


def _pairs(stream: Stream) -> list[tuple[str, str]]:
    return list(Contribution.objects.filter(stream=stream).values_list("who", "value"))


def close(stream: Stream, user=None) -> Stream:
    """Close the set of contributions (the game's start, a table's first roll): the seed becomes
    `mixed_seed(secret, contributions)`, whoever contributed; audited with who did and who did not."""
    if stream.closed:
        return stream
    with transaction.atomic():
        locked = Stream.objects.select_for_update().get(pk=stream.pk)
        if not locked.closed:
            pairs = _pairs(locked) if locked.mixed else []
            locked.seed = generator.mixed_seed(locked.secret, pairs) if locked.mixed else locked.secret
            locked.contributions_digest = generator.contributions_digest(pairs)
            locked.closed_at = timezone.now()
            locked.save(update_fields=["seed", "contributions_digest", "closed_at"])
            audit(locked.game, user, "dice_closed", {"stream": locked.label, "contributions": len(pairs),
                                                     "seats": sorted({w for w, _v in pairs}),
                                                     "digest": locked.contributions_digest})
    for field in ("seed", "contributions_digest", "closed_at"):
        setattr(stream, field, getattr(locked, field))
    return stream


def closed_game_stream(game: Game, user=None) -> Stream:
    """The war's stream with its seed fixed (closing the contributions if they are still open)."""
    return close(game_stream(game), user)


def turn_stream(game: Game, number: int) -> Stream:
    """The stream of the war's turn `number`: its seed is derived from the game's seed (`turn_seed`), so the
    game's one commitment covers every turn's dice (docs/dice.md)."""
    parent = closed_game_stream(game)
    seed = turn_seed(parent.seed, number)
    stream, _created = Stream.objects.get_or_create(
        game=game, label=turn_label(number),
        defaults={"seed": seed, "secret": seed, "fingerprint": fingerprint(seed), "closed_at": parent.closed_at,
                  "chosen": parent.chosen, "revealed_at": parent.revealed_at, "revealed_by": parent.revealed_by})
    return stream


@transaction.atomic
def roll(stream: Stream, count: int, *, sides: int = 6, purpose: str = "", ref: str = "", user=None) -> list[Roll]:
    """`count` server dice from the stream's next counters, stored as used."""
    if not 0 < count <= 200:
        raise ValueError("count out of range")
    if not stream.closed:
        close(stream, user)
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
    """Reveal the war's seed: the game's stream and every turn's stream derived from it, audited once.
    An open set of contributions is closed first: a secret shown while players may still add to it could be
    ground against."""
    stream = closed_game_stream(game, user)
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
    close(stream, user)
    locked = Stream.objects.select_for_update().get(pk=stream.pk)
    if locked.revealed_at is None:
        locked.revealed_at = timezone.now()
        locked.revealed_by = user if user and user.is_authenticated else None
        locked.save(update_fields=["revealed_at", "revealed_by"])
        audit(locked.game, user, "dice_revealed", {"stream": locked.label, "fingerprint": locked.fingerprint})
    return locked
