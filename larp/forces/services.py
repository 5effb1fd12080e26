"""Stack edits (R1, R2). Every change to the cards of an army, fleet or garrison goes through here.

An edit that breaks a rule is refused with a clear message in the user's
language and nothing is saved (each function is one transaction).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from larp.campaign.access import require_moderator
from larp.campaign.audit import audit
from larp.campaign.models import Game, Province
from larp.forces.models import Army, Fleet, TroopCard, TroopType

Stack = Army | Fleet | Province  # a Province stands for its fortress's garrison


def stack_label(stack: Stack) -> str:
    if isinstance(stack, Army):
        return _("army %(army)s") % {"army": stack}
    if isinstance(stack, Fleet):
        return str(stack)
    return _("garrison of %(province)s") % {"province": stack.name}


def stack_problems(stack: Stack, troop_types: Iterable[TroopType]) -> list[str]:
    """What is wrong with this stack holding exactly these cards (empty list: nothing)."""
    troop_types = list(troop_types)
    label = stack_label(stack)
    problems = []
    if isinstance(stack, Fleet):
        land = sorted({t.name for t in troop_types if t.domain != TroopType.NAVAL})
        if land:
            problems.append(
                _("%(stack)s: %(cards)s is a land card; a fleet takes naval cards only (R1).")
                % {"stack": label, "cards": ", ".join(land)}
            )
        return problems
    naval = sorted({t.name for t in troop_types if t.domain != TroopType.LAND})
    if naval:
        problems.append(
            _("%(stack)s: %(cards)s is a naval card; an army or a garrison takes land cards only (R1).")
            % {"stack": label, "cards": ", ".join(naval)}
        )
    if isinstance(stack, Army):
        limit = stack.game.army_max_men
        men = sum(t.men for t in troop_types)
        if men > limit:
            problems.append(
                _("%(stack)s would have %(men)s men; an army may have at most %(limit)s (R1).")
                % {"stack": label, "men": f"{men:,}".replace(",", " "), "limit": f"{limit:,}".replace(",", " ")}
            )
    if isinstance(stack, Province):
        if stack.domain != Province.LAND or not stack.fortress:
            if troop_types:
                problems.append(_("%(province)s has no fortress, so it cannot hold a garrison (R1).")
                                % {"province": stack.name})
    return problems


def _current_cards(stack: Stack):
    if isinstance(stack, Army):
        return TroopCard.objects.filter(army=stack)
    if isinstance(stack, Fleet):
        return TroopCard.objects.filter(fleet=stack)
    return TroopCard.objects.filter(garrison=stack)


def _new_card(stack: Stack, troop_type: TroopType) -> TroopCard:
    owner = {"army": stack} if isinstance(stack, Army) else {"fleet": stack} if isinstance(stack, Fleet) else {
        "garrison": stack}
    return TroopCard(game_id=stack.game_id, troop_type=troop_type, **owner)


def _take_from_supply(additions: Counter) -> list[str]:
    """Lock the troop types and draw the added cards from their supply (R2); return problems."""
    problems = []
    locked = {t.pk: t for t in TroopType.objects.select_for_update().filter(pk__in=[t.pk for t in additions])}
    for troop_type, count in sorted(additions.items(), key=lambda kv: kv[0].pk):
        current = locked[troop_type.pk]
        if current.supply is not None and current.supply < count:
            problems.append(
                _("Only %(left)s card(s) of %(type)s are left in the supply; %(wanted)s asked (R2).")
                % {"left": current.supply, "type": current.name, "wanted": count}
            )
    if not problems:
        for troop_type, count in additions.items():
            current = locked[troop_type.pk]
            if current.supply is not None:
                current.supply -= count
                current.save(update_fields=["supply"])
    return problems


@transaction.atomic
def set_stack(stack: Stack, troop_types: Iterable[TroopType]) -> list[TroopCard]:
    """Make the stack hold exactly these cards. Added cards come from the supply; removed ones leave the game."""
    wanted = list(troop_types)
    _check_same_game(stack, wanted)
    problems = stack_problems(stack, wanted)
    current = list(_current_cards(stack).select_related("troop_type"))
    have = Counter(c.troop_type for c in current)
    want = Counter(wanted)
    additions = want - have
    if not problems and additions:
        problems += _take_from_supply(additions)
    if problems:
        raise ValidationError(problems)
    removals = have - want
    to_delete = []
    for card in current:
        if removals[card.troop_type] > 0:
            removals[card.troop_type] -= 1
            to_delete.append(card.pk)
    TroopCard.objects.filter(pk__in=to_delete).delete()
    created = TroopCard.objects.bulk_create(_new_card(stack, t) for t, n in additions.items() for _ in range(n))
    return created


@transaction.atomic
def add_cards(stack: Stack, troop_type: TroopType, count: int = 1) -> list[TroopCard]:
    """A purchase (R2): add `count` cards of one type, drawn from the supply."""
    if count < 1:
        raise ValidationError(_("Add at least one card."))
    current = [c.troop_type for c in _current_cards(stack).select_related("troop_type")]
    return set_stack(stack, current + [troop_type] * count)


@transaction.atomic
def purchase(game: Game, by, army: Army, troop_type: TroopType, count: int,
             turn_number: int | None = None) -> list[TroopCard]:
    """Cards bought on the economic module (R2): added within the supply by a moderator, and audited
    (with the number of the turn under way, which the caller knows: forces sits below the turn cycle)."""
    require_moderator(by, game)
    if army.game_id != game.pk:
        raise ValidationError(_("This army belongs to another game."))
    created = add_cards(army, troop_type, count)
    detail = {"army": army.code, "troop_type": troop_type.code, "count": count}
    audit(game, by, "purchase", detail if turn_number is None else {"turn": turn_number, **detail})
    return created


@transaction.atomic
def remove_cards(stack: Stack, troop_type: TroopType, count: int = 1) -> None:
    current = [c.troop_type for c in _current_cards(stack).select_related("troop_type")]
    if current.count(troop_type) < count:
        raise ValidationError(
            _("%(stack)s has only %(have)s card(s) of %(type)s.")
            % {"stack": stack_label(stack), "have": current.count(troop_type), "type": troop_type.name}
        )
    for _i in range(count):
        current.remove(troop_type)
    set_stack(stack, current)


def _check_same_game(stack: Stack, troop_types: list[TroopType]) -> None:
    foreign = [t for t in troop_types if t.game_id != stack.game_id]
    if foreign:
        raise ValidationError(_("These troop types belong to another game."))
