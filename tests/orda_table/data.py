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
