"""Orders over HTTP: file, withdraw, list. Secret per faction until revealed (R3, R13)."""
import json
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from larp.arrival import arrived_at
from larp.campaign.access import require_faction
from larp.campaign.models import Faction, Game
from larp.orders import services
from larp.orders.forms import FiledOrderForm
from larp.orders.models import Order
from larp.turns.services import current_phase

STATUS = {"forbidden": 403, "unknown_unit": 404, "late": 409, "closed": 409}


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number an order can hold")


def _payload(request: HttpRequest) -> tuple[dict, str]:
    """The order document and its confirmation key, from a JSON body or, without JavaScript, a form POST."""
    if request.content_type == "application/json":
        try:
            data = json.loads(request.body or b"{}", parse_constant=_no_constant)
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: "[[[[..." nested too deep
            raise services.OrderRefused(_("The order could not be read: send it again from the order form."),
                                        code="malformed") from None
        data = data if isinstance(data, dict) else {}
        return data, data.get("key") or ""
    form = FiledOrderForm(request.POST)
    if not form.is_valid():
        raise services.OrderRefused(" ".join(m for errors in form.errors.values() for m in errors), code="malformed")
    return form.payload(), form.cleaned_data["key"]


def json_errors(view):
    """Unknown ids and refused access answer in JSON too, in the user's language (tablets show `message`)."""
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except (Http404, OverflowError):  # OverflowError: an id too large for SQLite names nothing
            return JsonResponse({"ok": False, "code": "not_found",
                                 "message": _("No such game, faction, army or fleet.")}, status=404)
        except PermissionDenied:
            return JsonResponse({"ok": False, "code": "forbidden",
                                 "message": _("This belongs to another faction: you may not see or change it.")},
                                status=403)

    return wrapper


def order_json(order: Order) -> dict:
    return {"unit": order.payload.get("unit"), "order": order.payload, "implicit": order.implicit,
            "filed_by": order.filed_by.username if order.filed_by else None,
            "filed_at": order.filed_at.isoformat(), "key": order.key, "in_grace": order.in_grace}


@login_required
@require_POST
@json_errors
def file_order(request: HttpRequest, game_id: int, unit: str) -> JsonResponse:
    game = get_object_or_404(Game, pk=game_id)
    try:
        payload, key = _payload(request)
        order = services.file_order(request.user, game, unit, payload, key=key, arrived_at=arrived_at(request))
    except services.OrderRefused as exc:
        return JsonResponse({"ok": False, "code": exc.code, "message": exc.message, "refusal": exc.refusal},
                            status=STATUS.get(exc.code, 422))
    return JsonResponse({"ok": True, **order_json(order), "dropped_fleet_order": order.dropped_fleet_order,
                         "repeated": order.repeated})


@login_required
@require_POST
@json_errors
def withdraw_order(request: HttpRequest, game_id: int, unit: str) -> JsonResponse:
    game = get_object_or_404(Game, pk=game_id)
    try:
        withdrawn = services.withdraw_order(request.user, game, unit, arrived_at=arrived_at(request))
    except services.OrderRefused as exc:
        return JsonResponse({"ok": False, "code": exc.code, "message": exc.message},
                            status=STATUS.get(exc.code, 422))
    return JsonResponse({"ok": True, "withdrawn": withdrawn})


@login_required
@require_GET
@json_errors
def faction_orders(request: HttpRequest, game_id: int, faction: str) -> JsonResponse:
    faction = get_object_or_404(Faction, game_id=game_id, code=faction)
    require_faction(request.user, faction)
    phase = current_phase(faction.game)
    orders = [] if phase is None else services.visible_orders(request.user, phase.turn).filter(faction=faction)
    return JsonResponse({"faction": faction.code, "turn": phase.turn.number if phase else None,
                         "orders": [order_json(o) for o in orders]})
