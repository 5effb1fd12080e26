"""A COMPLETE «Орда» data set MADE UP FOR THE TESTS (test_data: true).

These are not the physical game's numbers (the source lost them, O23): only the
five printed values the source gives are real; every other number here was
chosen for the tests so that a whole battle can be played. Never ship it as data.
"""
from larp.orda import dataset
from larp.orda.engine.hexes import disc

LEADERS = {"ivan_iii", "wanyan_xun", "genghis_khan", "batu_khan"}


def complete_data(title="Тестовый набор (выдуманные числа)") -> dict:
    data = dataset.blank(title)
    data["test_data"] = True
    for faction, kinds in data["stats"].items():
        for kind, stats in kinds.items():
            for param, value in stats.items():
                if value is not None:
                    continue                     # the source's own values stay as they are
                if param == "range":
                    continue                     # melee kinds have none
                stats[param] = {"health": 3 if kind in LEADERS else 2, "attack": 2, "defence": 1,
                                "speed": 2, "summon": 2}[param]
            if stats.get("range", 0) is None and kind in ("archer", "crossbowman", "long_bow_raider"):
                stats["range"] = 2
    data["board"] = sorted([list(h) for h in disc(3)])
    data["capitals"] = {"blue": [0, 1], "yellow": [0, -2], "red": [3, 0], "green": [-3, 0]}
    data["cities"] = {"dark_blue": [[2, 1], [1, 2], [-2, 3]], "dark_red": [[3, -3], [2, -3], [3, -2]]}
    line = [list(h) for h in disc(3) if h[1] >= 1]
    data["borders"] = {"red": line, "green": line}
    data["durability"] = {"capital": 1, "city": 1}
    data["indicator_cells"] = 5
    data["events"] = {e: f"Тестовая карта {e} (текст выдуман для тестов)" for e in dataset.EVENTS}
    return dataset.clean(data)


# Two made-up situations for the tests of the table's acts (positions chosen for the tests, on the data above):
# China against North Mongolia — an Арбалетчик with a pushable target two hexes off, a Подрывник with three enemies
# next to him; Rus against North Mongolia — Змей Горыныч with a line of two in front of him and a lone enemy aside.
CROSSBOW_AND_SAPPER = {"cn-crossbowman-1": [-1, 1], "cn-sapper-1": [-2, 1], "cn-wanyan_xun": [1, 1],
                       "nm-raider-1": [1, -1], "nm-raider-2": [-1, 0], "nm-thief-1": [-2, 0], "nm-thief-2": [-3, 1],
                       "nm-batu_khan": [0, -3]}
SERPENT_LINE = {"rus-zmey_gorynych": [-2, 1], "rus-ivan_iii": [1, 1],
                "nm-raider-1": [-1, 0], "nm-raider-2": [0, -1], "nm-thief-1": [-2, 0], "nm-batu_khan": [0, -3]}


def arranged_setup(order: list[str], placements: dict, *, damage: dict | None = None, rolloff: bool = False) -> dict:
    """A table's starting case as the bridge writes one (a battle of the war: no start-of-game placement rules), on
    the data set made up for the tests, with exactly the units of `placements` on the board."""
    from larp.orda import situation as sit

    setup = sit.build_setup(complete_data(), "skirmish", order)
    for u in setup["units"]:
        h = placements.get(u["id"])
        u.update(where="board" if h else "reserve", hex=h, damage=(damage or {}).get(u["id"], 0))
    setup["war_battle"] = True
    if rolloff:
        setup["rolloff"] = True
    return setup
