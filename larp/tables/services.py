"""Every write to a table, in a transaction, audited (docs/tables.md).

A system's services (larp/PKG/services.py) call these around their engine:

    with locked(table_id) as table:            # the table's row lock: one act at a time
        seq = next_seq(table)
        dice = take_dice(table, seq, count=..., hand=..., user=user, purpose=...)
        outcome = <the engine, given the dice as data>
        record(table, "melee", user, payload=..., outcome=..., seq=seq, summary=...)
        set_state(table, <the engine's replay>)

`undo_last` marks the last live step undone (never deletes it) and discards its
server dice with the reason; the system then replays the live steps and stores
the state again.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterable, Iterator

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from larp.campaign.audit import audit
from larp.campaign.models import Faction, Game
from larp.dice import services as dice
from larp.dice.models import Roll
from larp.tables import registry, version_pass
from larp.tables.models import Side, Step, Table


def create_table(game: Game, system: str, title: str, sides: Iterable[tuple[str, str, Faction | None]], user, *,
                 setup: dict | None = None, origin: dict | None = None, seed: int | None = None) -> Table:
    """A new table with its sides (engine key, name, faction) and its committed dice stream."""
    sides = list(sides)
    if system not in dict(Table._meta.get_field("system").choices):
        raise ValidationError(_("Unknown rule system."))
    if len({key for key, _n, _f in sides}) != len(sides) or len(sides) < 2:
        raise ValidationError(_("A table needs at least two sides with different names."))
    for _key, _name, faction in sides:
        if faction is not None and faction.game_id != game.pk:
            raise ValidationError(_("That faction is not in this game."))
    with transaction.atomic():
        stream = dice.commit(game, label=f"table-pending-{timezone.now().timestamp()}", seed=seed)
        table = Table.objects.create(game=game, system=system, title=title.strip()[:200], dice=stream,
                                     setup=setup or {}, origin=origin or {},
                                     created_by=user if user and user.is_authenticated else None)
        stream.label = f"table-{table.pk}"
        stream.save(update_fields=["label"])
        Side.objects.bulk_create([Side(table=table, key=key, name=name.strip()[:120], faction=faction, position=i)
                                  for i, (key, name, faction) in enumerate(sides)])
        audit(game, user, "table_created", {"table": table.pk, "title": table.title, "system": system,
                                            "fingerprint": stream.fingerprint})
    return table


@contextmanager
def locked(table_id: int) -> Iterator[Table]:
    """The table under its row lock for the length of one act (a transaction)."""
    with transaction.atomic():
        yield Table.objects.select_for_update().select_related("dice", "game").get(pk=table_id)


def next_seq(table: Table) -> int:
    return (table.steps.aggregate(m=Max("seq"))["m"] or 0) + 1


def take_dice(table: Table, seq: int, *, count: int = 0, hand: Iterable[int] | None = None, sides: int = 6,
              purpose: str = "", user=None) -> list[int]:
    """The dice of step `seq`: typed in at the table (`hand`) or rolled by the server (`count`), on the record."""
    ref = f"table-{table.pk}:step-{seq}"
    if hand is not None:
        return [r.value for r in dice.record_hand(table.dice, hand, sides=sides, purpose=purpose, ref=ref, user=user)]
    if count:
        return [r.value for r in dice.roll(table.dice, count, sides=sides, purpose=purpose, ref=ref, user=user)]
    return []


def record(table: Table, kind: str, user, *, seq: int | None = None, side: str = "", payload: dict | None = None,
           outcome: dict | None = None, reason: str = "", summary: str = "", starts_play: bool | None = None) -> Step:
    """Append one step to the log (inside `locked`), bump the table's version and audit it.

    A step starts play (the table leaves «being set up») unless its kind is one of SETUP_KINDS, or the system
    says it does not (`starts_play=False`: e.g. a moderator's ruling while the armies are still being placed)."""
    step = Step.objects.create(table=table, seq=seq or next_seq(table), kind=kind, side=side,
                               payload=payload or {}, outcome=outcome or {}, reason=reason,
                               user=user if user and user.is_authenticated else None)
    if starts_play is None:
        starts_play = kind not in SETUP_KINDS
    if table.status == Table.SETUP and starts_play:
        table.status = Table.PLAYING
        table.save(update_fields=["status"])
    bump(table)
    audit(table.game, user, "table_override" if reason and kind.startswith("override") else "table_step",
          {"table": table.pk, "title": table.title, "seq": step.seq, "kind": kind, "summary": summary}, reason)
    return step


# Kinds of steps that do not start play (a table stays «being set up» through them).
SETUP_KINDS = {"setup", "roster", "values", "rolloff", "override_first", "deploy", "confirm"}


def live_steps(table: Table) -> list[Step]:
    return list(table.steps.filter(undone=False).order_by("seq"))


def undo_last(table: Table, user, reason: str, *, kinds: Iterable[str] | None = None) -> Step | None:
    """Mark the last live step undone (inside `locked`); its server dice stay on the record, discarded."""
    if not (reason or "").strip():
        raise ValidationError(_("Say why the step is undone."))
    if table.status == Table.FINISHED:
        taken = registry.result_taken(table)
        if taken:
            raise ValidationError(taken, code="conflict")
    steps = table.steps.filter(undone=False)
    if kinds is not None:
        steps = steps.filter(kind__in=list(kinds))
    step = steps.order_by("-seq").first()
    if step is None:
        return None
    step.undone = True
    step.undone_reason = reason.strip()
    step.save(update_fields=["undone", "undone_reason"])
    dice.discard(stream=table.dice, ref=step.ref, reason=_("step undone: %(reason)s") % {"reason": reason.strip()})
    if table.status == Table.FINISHED:
        table.status = Table.PLAYING
        table.result = {}
        table.finished_at = None
        table.save(update_fields=["status", "result", "finished_at"])
    bump(table)
    audit(table.game, user, "table_undo", {"table": table.pk, "title": table.title, "seq": step.seq,
                                          "kind": step.kind}, reason.strip())
    return step


def order_sides(table: Table, keys: list[str]) -> None:
    """Put the table's sides in this order (a system whose turn order is fixed at the table, e.g. by a roll-off);
    sides not named keep their places after them."""
    rank = {k: i for i, k in enumerate(keys)}
    for side in table.sides.all():
        position = rank.get(side.key, len(keys) + side.position)
        if side.position != position:
            Side.objects.filter(pk=side.pk).update(position=position)


def set_state(table: Table, state: dict) -> None:
    table.state = state
    table.save(update_fields=["state"])


def bump(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.refresh_from_db(fields=["version"])
    version_pass.remember(table.pk)  # what the pages' polls read, once this act is committed


def finish(table: Table, result: dict, user, *, summary: str = "") -> None:
    """The end of the battle or contest (inside `locked`): the result stored and announced."""
    table.status = Table.FINISHED
    table.result = result
    table.finished_at = timezone.now()
    table.save(update_fields=["status", "result", "finished_at"])
    bump(table)
    audit(table.game, user, "table_finished", {"table": table.pk, "title": table.title, "summary": summary})


def cancel(table: Table, user, reason: str) -> None:
    if not (reason or "").strip():
        raise ValidationError(_("Say why the table is cancelled."))
    table.status = Table.CANCELLED
    table.save(update_fields=["status"])
    bump(table)
    audit(table.game, user, "table_cancelled", {"table": table.pk, "title": table.title}, reason.strip())


def confirm(table: Table, side: Side, value: bool = True) -> None:
    """A side has confirmed (or withdrawn) its hidden choice; the other side learns only that."""
    Side.objects.filter(pk=side.pk).update(confirmed=value)
    bump(table)


def reset_confirmations(table: Table) -> None:
    table.sides.update(confirmed=False)
    bump(table)


def server_rolls(table: Table) -> list[Roll]:
    return list(Roll.objects.filter(stream=table.dice).order_by("pk"))
