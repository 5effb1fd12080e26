"""Writes of the players' tablets: join codes, player accounts, spy reports (R13), orders from the form.

Every function that a moderator calls checks the role itself (larp.campaign.access).
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from larp.campaign.access import require_moderator
from larp.campaign.models import Faction, Game, Membership, Province
from larp.campaign.services.members import create_player
from larp.engine import order_from_path
from larp.engine.errors import CaseError
from larp.forces.models import Army, Fleet
from larp.orders import services as orders
from larp.orders.models import Order
from larp.orders.pickers import busy_fleets, carriers, free_fleets, start_situation
from larp.tablet import tokens
from larp.tablet.models import JoinToken, SpyReport
from larp.tablet.middleware import forget
from larp.tablet.selectors import stack_content
from larp.turns.selectors import current_phase

# --- join codes -------------------------------------------------------------------


def _player_membership(game: Game, user) -> Membership:
    membership = Membership.objects.filter(game=game, user=user, role=Membership.PLAYER).first()
    if membership is None:
        raise ValidationError(_("Join codes are for the game's players only."))
    return membership


@transaction.atomic
def issue_code(by, game: Game, user) -> JoinToken:
    """A new join code for a player; the player's earlier codes are revoked (one printed code per player)."""
    require_moderator(by, game)
    _player_membership(game, user)
    now = timezone.now().replace(microsecond=0)
    earlier = JoinToken.objects.filter(game=game, user=user, revoked_at__isnull=True)
    forget(list(earlier.values_list("pk", flat=True)))
    earlier.update(revoked_at=now, revoked_by=by)
    return JoinToken.objects.create(key=tokens.new_key(), game=game, user=user, created_by=by, created_at=now,
                                    expires_at=tokens.expiry(now))


@transaction.atomic
def issue_missing_codes(by, game: Game) -> int:
    """A code for every player who has no working one; returns how many were issued."""
    require_moderator(by, game)
    now = timezone.now()
    covered = set(JoinToken.objects.filter(game=game, revoked_at__isnull=True, expires_at__gt=now)
                  .values_list("user_id", flat=True))
    issued = 0
    for m in Membership.objects.filter(game=game, role=Membership.PLAYER).select_related("user"):
        if m.user_id not in covered:
            issue_code(by, game, m.user)
            issued += 1
    return issued


@transaction.atomic
def revoke_code(by, token: JoinToken) -> JoinToken:
    require_moderator(by, token.game_id)
    if token.revoked_at is None:
        token.revoked_at, token.revoked_by = timezone.now(), by
        token.save(update_fields=["revoked_at", "revoked_by"])  # forgotten by the cache too (apps.py)
    return token


def link(token: JoinToken) -> str:
    return tokens.sign(token.key, token.created_at)


def redeem(value: str) -> JoinToken:
    """The token a scanned link names, if it still works; raises tokens.TokenProblem (bad/expired/revoked)."""
    key = tokens.unsign(value)
    token = JoinToken.objects.select_related("user", "game").filter(key=key).first()
    if token is None:
        raise tokens.TokenProblem("bad")
    if token.revoked_at is not None:
        raise tokens.TokenProblem("revoked")
    if token.expires_at <= timezone.now():
        raise tokens.TokenProblem("expired")
    if not token.user.is_active or not Membership.objects.filter(user=token.user, game=token.game).exists():
        raise tokens.TokenProblem("revoked")
    JoinToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now(), uses=token.uses + 1)
    return token


@transaction.atomic
def add_player(by, faction: Faction, username: str, name: str = "") -> tuple[object, JoinToken]:
    """A player account for a faction (no password anyone needs to know) and its first join code."""
    require_moderator(by, faction.game_id)
    username = (username or "").strip()
    name = " ".join((name or "").split())
    if not name:
        raise ValidationError(_("Give the player's name: it is how moderators and other players see them."))
    if len(name) > 150:
        raise ValidationError(_("The name is too long: at most 150 characters."))
    if not username:
        raise ValidationError(_("Give the player a login."))
    User = get_user_model()
    try:
        User.username_validator(username)
    except ValidationError:
        raise ValidationError(_("A login may contain letters, digits and @/./+/-/_ only.")) from None
    user, _password = create_player(faction, username, by=by, name=name)
    return user, issue_code(by, faction.game, user)


# --- spy reports (R13) ----------------------------------------------------------------


def resolve_stack(game: Game, ref: str):
    """`army:<pk>`, `fleet:<pk>` or `garrison:<province code>` -> the object, or None."""
    kind, _sep, ident = (ref or "").partition(":")
    if kind in ("army", "fleet") and not (ident.isascii() and ident.isdigit() and len(ident) <= 18):
        return None  # '²', '٢' and 20-digit numbers pass isdigit() but name no stack
    if kind == "army":
        return Army.objects.filter(game=game, pk=int(ident), destroyed=False).select_related("faction", "province").first()
    if kind == "fleet":
        return Fleet.objects.filter(game=game, pk=int(ident), destroyed=False).select_related("faction", "sea").first()
    if kind == "garrison":
        return Province.objects.filter(game=game, code=ident, domain=Province.LAND).select_related("owner").first()
    return None


@transaction.atomic
def grant_spy_report(by, game: Game, to_faction: Faction, ref: str) -> SpyReport:
    """Snapshot one stack's contents now and show it to `to_faction` (R13)."""
    require_moderator(by, game)
    if to_faction.game_id != game.pk:
        raise ValidationError(_("Choose a faction of this game."))
    stack = resolve_stack(game, ref)
    if stack is None:
        raise ValidationError(_("Choose a stack on the map."))
    owner = stack.owner if isinstance(stack, Province) else stack.faction
    if owner is not None and owner.pk == to_faction.pk:
        raise ValidationError(_("A faction sees its own stacks anyway: choose another faction's stack."))
    return SpyReport.objects.create(game=game, to_faction=to_faction, subject_faction=owner, stack=ref,
                                    content=stack_content(stack), granted_by=by)


# --- orders from the tablet form (R5) ------------------------------------------------


def file_from_form(user, game: Game, unit_code: str, picks: dict, key: str = "", arrived_at=None) -> object:
    """Turn the form's picks (type, steps, fleet) into the engine's order document and file it.

    The engine builds the document (order_from_path) from the turn-start
    situation; larp.orders.services checks it again and saves it. Raises
    orders.OrderRefused with a message in the user's language.
    """
    kind = picks.get("type") or ""
    if kind == "hold":
        return orders.file_order(user, game, unit_code, {"type": "hold"}, key=key, arrived_at=arrived_at)
    phase = current_phase(game)
    sit = start_situation(phase.turn) if phase is not None else None
    if sit is None or sit.unit(unit_code) is None:
        # No turn (or the unit was raised after it began): let the orders service say why.
        return orders.file_order(user, game, unit_code, {"type": kind}, key=key, arrived_at=arrived_at)
    fleet, path = picks.get("fleet") or None, picks.get("path") or []
    if fleet is None and kind in (Order.SEA_ATTACK, Order.LANDING) and path and sit.unit(unit_code) is not None:
        # The form names the fleet only when it offers a choice: the one it offered is the first fleet no other
        # order of the faction boards (R5), as the pickers show it.
        carried = carriers(Order.objects.filter(turn=phase.turn, faction__code=sit.unit(unit_code).faction,
                                                type__in=[Order.SEA_ATTACK, Order.LANDING]))
        try:
            free = free_fleets(sit, unit_code, path[0], busy_fleets(carried, unit_code))
        except (ValueError, CaseError):
            free = []
        fleet = free[0] if free else None
    try:
        payload = order_from_path(sit, unit_code, kind, path, fleet=fleet)
    except (ValueError, CaseError):
        raise orders.OrderRefused(_("Choose an order type."), code="bad_type") from None
    return orders.file_order(user, game, unit_code, payload, key=key, arrived_at=arrived_at)
