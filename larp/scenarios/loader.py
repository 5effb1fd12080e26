"""Turn a scenario file into a game, in one transaction: all of it or nothing."""
from __future__ import annotations

import hashlib
import pickle

from django.db import DataError, IntegrityError, transaction
from django.utils.translation import gettext_noop

from larp.campaign.models import Adjacency, Faction, Game, MapPicture, Province, Relation, SpecialState
from larp.dice import services as dice_services
from larp.forces.models import Army, Commander, Fleet, TroopCard, TroopType
from larp.scenarios import Problem, ScenarioError, load, lone_surrogate, validate

# The stateful specials of R10 and their fresh state.
FRESH_SPECIAL_STATE = {
    "meander_miracle": lambda spec: {"used": False},
    "victory_march": lambda spec: {"lost": False},
    "greek_fire_land": lambda spec: {"charges": int(spec.get("charges", 2))},
}


def load_scenario(name_or_path: str, *, title: str, seed: int | None = None) -> Game:
    """Read, validate and create. Raises ScenarioError listing every problem."""
    data, picture = load(name_or_path), None
    if str(name_or_path).endswith(".zip"):  # the scenario with its map picture
        from pathlib import Path

        from larp.scenarios.files import parse_zip

        data, picture = parse_zip(Path(name_or_path).read_bytes(), Path(name_or_path).name)
    try:
        return create_game(data, title=title, seed=seed, picture=picture)
    except (OverflowError, DataError, IntegrityError) as exc:  # valid, but too big or too long to store
        raise ScenarioError([Problem("scenario", f"a value does not fit the database: {exc}")]) from None


@transaction.atomic
def create_game(data: dict, *, title: str, seed: int | None = None,
                picture: tuple[str, bytes] | None = None) -> Game:
    """A new game from a scenario's data: the map, the factions, their forces and the specials' state.

    `picture` (file name, bytes) is the map picture the scenario names (scenario.map): checked and re-encoded
    (picture.py), the game's map is drawn on it at the places' x and y.
    """
    title = (title or "").strip()
    _check(data, title, seed)
    kept = _picture(data, picture)
    game = Game.objects.create(
        title=title,
        scenario=data["scenario"]["id"],
        scenario_header={k: v for k, v in data["scenario"].items() if k != "id"},
        rules=data.get("rules") or {},
        seed=seed,  # set by hand: the game is marked, its dice are not random (docs/dice.md)
    )
    types = _create_troop_types(game, data)
    factions = _create_factions(game, data)
    provinces = _create_map(game, data, factions)
    _create_forces(game, data, types, factions, provinces)
    _create_special_state(game, data)
    Relation.objects.bulk_create(
        Relation(game=game, kind=r["kind"],
                 from_faction=factions[r["factions"][0] if r["kind"] == "alliance" else r["from"]],
                 to_faction=factions[r["factions"][1] if r["kind"] == "alliance" else r["to"]])
        for r in data.get("relations") or [])
    if kept is not None:
        MapPicture.objects.create(game=game, **kept)
    dice_services.game_stream(game)  # the war's dice commitment, fixed with the game; contributions open
    return game


_VALIDATED: dict[bytes, tuple[Problem, ...]] = {}


def _problems(data: dict) -> list[Problem]:
    """validate(data), remembered by the data's digest: the same scenario is loaded again and again (a demo game, a
    rehearsal copy, the tests' games), and checking it against the schema cost more than creating the game."""
    try:
        key = hashlib.blake2b(pickle.dumps(data, protocol=5), digest_size=16).digest()  # types and order kept
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):  # not plain data: check it each time
        return validate(data)
    if key not in _VALIDATED:
        if len(_VALIDATED) > 64:
            _VALIDATED.clear()
        _VALIDATED[key] = tuple(validate(data))
    return list(_VALIDATED[key])


def _check(data: dict, title: str, seed: int | None = None) -> None:
    """Every problem of the scenario, the title and the seed at once (ScenarioError), or nothing."""
    problems = _problems(data)
    limit = Game._meta.get_field("title").max_length
    if not title:
        problems.append(Problem("--game", gettext_noop("the game needs a title")))
    elif len(title) > limit:
        problems.append(Problem("--game", f"the title is {len(title)} characters long; at most {limit}"))
    elif lone_surrogate(title) is not None:
        problems.append(Problem("--game", "the title is not text (a lone UTF-16 surrogate)"))
    elif Game.objects.filter(title=title).exists():
        problems.append(Problem("--game", gettext_noop("a game titled %(title)s already exists; choose another title"),
                                {"title": repr(title)}))
    if seed is not None and not 0 <= seed < 2**63:
        problems.append(Problem("--seed", f"must be between 0 and {2**63 - 1}"))
    if problems:
        raise ScenarioError(problems)


def _picture(data: dict, picture: tuple[str, bytes] | None) -> dict | None:
    """The map picture, checked, as MapPicture's fields; ScenarioError when it is unusable or places lack points."""
    if picture is None:
        return None
    import hashlib

    from larp.scenarios import picture as pictures

    name = picture[0]
    try:
        body, kind, width, height = pictures.read(picture[1], name)
    except pictures.PictureError as exc:
        raise ScenarioError([Problem(f"scenario.map {name}", str(exc))]) from None
    missing = [p["id"] for p in data["provinces"] if p.get("x") is None or p.get("y") is None]
    if missing:
        raise ScenarioError([Problem("provinces", gettext_noop("a scenario with a map picture needs every place's "
                                                               "point on it (x, y); missing: %(ids)s"),
                                     {"ids": ", ".join(missing[:10])})])
    return {"name": name, "content_type": pictures.content_type(kind), "body": body, "width": width,
            "height": height, "key": hashlib.sha256(body).hexdigest()[:16]}


def _create_troop_types(game: Game, data: dict) -> dict[str, TroopType]:
    types = {
        t["id"]: TroopType(
            game=game, code=t["id"], name_ru=t["name_ru"], name_en=t.get("name_en", ""),
            domain=t["domain"], power=t["power"], men=t["men"], supply=t.get("supply"),
        )
        for t in data["troop_types"]
    }
    TroopType.objects.bulk_create(types.values())
    return types


def _create_factions(game: Game, data: dict) -> dict[str, Faction]:
    factions = {
        f["id"]: Faction(
            game=game, code=f["id"], name_ru=f["name_ru"], name_en=f.get("name_en", ""),
            colour=f["colour"].lower(), crusader=bool(f.get("crusader")), specials=list(f.get("specials") or []),
        )
        for f in data["factions"]
    }
    Faction.objects.bulk_create(factions.values())
    return factions


def _create_map(game: Game, data: dict, factions: dict[str, Faction]) -> dict[str, Province]:
    """Provinces and sea zones with their owners, the factions' capitals, the borders."""
    provinces = {}
    for p in data["provinces"]:
        owner = factions.get(p.get("owner")) if p.get("owner") else None
        provinces[p["id"]] = Province(
            game=game, code=p["id"], name_ru=p["name_ru"], name_en=p.get("name_en", ""), domain=p["domain"],
            owner=owner, start_owner=owner, fortress=bool(p.get("fortress")), special=p.get("special") or "",
            latitude=float(p["lat"]), longitude=float(p["lon"]),
            map_x=float(p["x"]) if p.get("x") is not None else None,
            map_y=float(p["y"]) if p.get("y") is not None else None,
        )
    Province.objects.bulk_create(provinces.values())

    for f in data["factions"]:
        factions[f["id"]].capital = provinces[f["capital"]]
    Faction.objects.bulk_update(factions.values(), ["capital"])

    borders = []
    for a, b in data["adjacency"]:
        pa, pb = sorted((provinces[a], provinces[b]), key=lambda p: p.pk)
        borders.append(Adjacency(game=game, a=pa, b=pb))
    Adjacency.objects.bulk_create(borders)
    return provinces


def _create_forces(game: Game, data: dict, types: dict[str, TroopType], factions: dict[str, Faction],
                   provinces: dict[str, Province]) -> None:
    """Garrisons, armies and fleets with their cards and commanders."""
    cards = [
        TroopCard(game=game, troop_type=types[t], garrison=provinces[p["id"]])
        for p in data["provinces"]
        for t in p.get("garrison") or []
    ]
    commanders = []
    for f in data["factions"]:
        faction = factions[f["id"]]
        armies = [
            Army(game=game, faction=faction, number=a["number"], province=provinces[a["province"]])
            for a in f.get("armies") or []
        ]
        Army.objects.bulk_create(armies)
        fleets = [
            Fleet(game=game, faction=faction, number=fl["number"], sea=provinces[fl["sea"]])
            for fl in f.get("fleets") or []
        ]
        Fleet.objects.bulk_create(fleets)
        for kind, units, raw in (("army", armies, f.get("armies") or []), ("fleet", fleets, f.get("fleets") or [])):
            for unit, u in zip(units, raw):
                cards += [TroopCard(game=game, troop_type=types[t], **{kind: unit}) for t in u.get("troops") or []]
                commanders += [
                    Commander(game=game, faction=faction, name_ru=cm["name_ru"], name_en=cm.get("name_en", ""),
                              power=cm["power"], **{kind: unit})
                    for cm in u.get("commanders") or []
                ]
    TroopCard.objects.bulk_create(cards)
    Commander.objects.bulk_create(commanders)


def _create_special_state(game: Game, data: dict) -> None:
    """The fresh state of every stateful special some faction holds (R10)."""
    specials = (data.get("rules") or {}).get("specials") or {}
    held = sorted({sp for f in data["factions"] for sp in f.get("specials") or []})
    SpecialState.objects.bulk_create(
        SpecialState(game=game, special=sp, state=FRESH_SPECIAL_STATE[sp](specials.get(sp) or {}))
        for sp in held
        if sp in FRESH_SPECIAL_STATE
    )
