"""Games, tablets (player accounts with join codes) and the legal orders each unit can be given.

Runs inside the load test's own process with Django set up against the
load test's database (run.py does that before importing this module).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from larp.campaign.models import Game
from larp.campaign.services.members import add_moderator, create_player
from larp.scenarios.loader import load_scenario
from larp.engine.case import parse_case
from larp.engine.orders import check_order
from larp.tablet import services as tablet
from larp.turns import services as turns
from larp.turns.models import Phase


@dataclass
class Tablet:
    game_id: int
    faction: str
    username: str
    join_path: str
    units: list[str]


@dataclass
class GameSetup:
    game: Game
    moderator: object
    tablets: list[Tablet] = field(default_factory=list)
    variants: dict[str, list[dict]] = field(default_factory=dict)  # unit -> legal order payloads
    illegal: dict[str, dict] = field(default_factory=dict)  # unit -> one order the engine refuses


def create_games(count: int, strategy_seconds: float, tablets_per_game: int, tag: str) -> list[GameSetup]:
    setups = []
    for g in range(count):
        game = load_scenario("latin-east-1204", title=f"load {tag} game {g + 1}", seed=1204 + g)
        game.rules = {**game.rules, "phase_seconds": {**game.rules.get("phase_seconds", {}),
                                                      "strategy": strategy_seconds}}
        game.save(update_fields=["rules"])
        mod, _ = add_moderator(game, f"load-{tag}-mod-{g + 1}")
        setup = GameSetup(game=game, moderator=mod)
        factions = list(game.factions.order_by("code"))
        units_of = {f.code: [a.code for a in game.armies.filter(faction=f, destroyed=False).order_by("number")]
                    + [fl.code for fl in game.fleets.filter(faction=f, destroyed=False).order_by("number")]
                    for f in factions}
        for i in range(tablets_per_game):
            faction = factions[i % len(factions)]
            user, _ = create_player(faction, f"load-{tag}-g{g + 1}-t{i + 1:03d}")
            token = tablet.issue_code(mod, game, user)
            setup.tablets.append(Tablet(game.pk, faction.code, user.username,
                                        f"/join/{tablet.link(token)}/", units_of[faction.code]))
        setups.append(setup)
    return setups


def start(setup: GameSetup) -> Phase:
    return turns.start_game(setup.game, setup.moderator)


def order_variants(setup: GameSetup, phase: Phase) -> None:
    """Every unit's legal orders at the turn's start (hold, one-step marches, fleet moves), checked by the engine."""
    case = phase.turn.start_state
    situation = parse_case(case)
    neighbours: dict[str, set[str]] = {}
    for a, b in case["adjacency"]:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    domain = {p["id"]: p["domain"] for p in case["provinces"]}
    for army in case["armies"]:
        legal = [{"type": "hold"}]
        for to in sorted(neighbours.get(army["province"], ())):
            if domain.get(to) == "land":
                order = {"type": "march", "path": [to]}
                if check_order(situation, {**order, "unit": army["id"]}) is None:
                    legal.append(order)
        setup.variants[army["id"]] = legal
        far = sorted(p for p, d in domain.items() if d == "land" and p not in neighbours.get(army["province"], ())
                     and p != army["province"])
        setup.illegal[army["id"]] = {"type": "march", "path": [random.Random(army["id"]).choice(far)]}
    for fleet in case["fleets"]:
        legal = [{"type": "hold"}]
        for to in sorted(neighbours.get(fleet["sea"], ())):
            if domain.get(to) == "sea":
                order = {"type": "fleet_move", "sea": to}
                if check_order(situation, {**order, "unit": fleet["id"]}) is None:
                    legal.append(order)
        setup.variants[fleet["id"]] = legal
        setup.illegal[fleet["id"]] = {"type": "march", "path": ["nowhere"]}
