"""Properties over generated inputs (hypothesis): C10's order, C11's search, replays, determinism, hostile input."""
import itertools
import json
import pathlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from larp.ordonnance.engine import seeded
from larp.ordonnance.engine.army import counts_of, key_of
from larp.ordonnance.engine.data import load_rules
from larp.ordonnance.engine.reach import best_completion, can_beat

from .helpers import result, run_case

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RULES = load_rules()
SYMBOLS = list(RULES.symbols)
masks_st = st.integers(min_value=1, max_value=31)
army_st = st.lists(masks_st, min_size=4, max_size=4)


def reference_beats(a_counts, b_counts):
    """C10 written out step by step from the spec's table (no key): +1 if a is stronger, -1 if b, 0 if identical."""
    for size in (4, 3, 2):   # regiments, battalions, companies: count, then ranks highest first
        a = sorted((r + 1 for r, n in enumerate(a_counts) if n == size), reverse=True)
        b = sorted((r + 1 for r, n in enumerate(b_counts) if n == size), reverse=True)
        if len(a) != len(b):
            return 1 if len(a) > len(b) else -1
        for x, y in zip(a, b):
            if x != y:
                return 1 if x > y else -1
    a = sorted((r + 1 for r, n in enumerate(a_counts) if n == 1), reverse=True)
    b = sorted((r + 1 for r, n in enumerate(b_counts) if n == 1), reverse=True)
    for x, y in zip(a, b):   # singles: rank first; running out loses
        if x != y:
            return 1 if x > y else -1
    return (len(a) > len(b)) - (len(a) < len(b))


@SETTINGS
@given(a=army_st, b=army_st)
def test_the_key_orders_armies_exactly_as_the_steps_of_c10(a, b):
    ka, kb = key_of(RULES, counts_of(RULES, a)), key_of(RULES, counts_of(RULES, b))
    expected = reference_beats(counts_of(RULES, a), counts_of(RULES, b))
    assert ((ka > kb) - (ka < kb)) == expected


@SETTINGS
@given(army=army_st, card=st.integers(0, 3), bit=st.integers(0, 4))
def test_adding_a_symbol_never_weakens_an_army(army, card, bit):
    stronger = list(army)
    stronger[card] |= 1 << bit
    assert key_of(RULES, counts_of(RULES, stronger)) >= key_of(RULES, counts_of(RULES, army))


def brute_best(masks, pool_list):
    need = 4 - len(masks)
    if len(pool_list) < need:
        return None
    return max(key_of(RULES, counts_of(RULES, list(masks) + list(extra)))
               for extra in itertools.combinations(pool_list, need))


pool_st = st.lists(masks_st, min_size=0, max_size=12)


@SETTINGS
@given(masks=st.lists(masks_st, min_size=0, max_size=3), pool_list=pool_st, target=army_st)
def test_the_pruned_search_finds_the_same_best_completion_as_brute_force(masks, pool_list, target):
    pool = {}
    for m in pool_list:
        pool[m] = pool.get(m, 0) + 1
    found = best_completion(RULES, tuple(masks), pool)
    expected = brute_best(masks, pool_list)
    assert (found.key if found else None) == expected
    if found:   # the completion shown is real: its cards come from the pool and give that key
        assert all(found.added.count(m) <= pool[m] for m in found.added)
        assert key_of(RULES, counts_of(RULES, list(masks) + list(found.added))) == found.key
    target_key = key_of(RULES, counts_of(RULES, target))
    assert can_beat(RULES, tuple(masks), pool, target_key) == (expected is not None and expected > target_key)


@SETTINGS
@given(masks=st.lists(masks_st, min_size=0, max_size=3))
def test_an_unknown_roster_allows_the_full_cards_completion(masks):
    found = best_completion(RULES, tuple(masks), None)
    pool = {31: 4}   # four full cards are the best any roster could give
    assert found.key == best_completion(RULES, tuple(masks), pool).key


plays_st = st.lists(st.tuples(st.integers(0, 3), st.integers(1, 5), masks_st), min_size=0, max_size=90)


def _symbols(mask):
    return [SYMBOLS[i] for i in range(5) if mask >> i & 1]


def _contest(players, plays, deck=None):
    return {"players": players, "deck": deck,
            "plays": [{"player": players[p % len(players)], "territory": t, "card": {"symbols": _symbols(m)}}
                      for p, t, m in plays]}


@SETTINGS
@given(n=st.integers(2, 4), plays=plays_st)
def test_a_replayed_log_keeps_the_rules_invariants(n, plays):
    players = ["anna", "boris", "vera", "gleb"][:n]
    out = result("contest", _contest(players, plays))
    markers = out["markers"]
    assert [m["marker"] for m in markers] == list(range(1, len(markers) + 1))
    assert out["game_over"] == (len(markers) == 5)
    laid = len(plays) - len(out["refused"])
    assert sum(a["size"] for t in out["territories"] for a in t["armies"].values()) == laid
    for t in out["territories"]:
        assert all(a["size"] <= 4 for a in t["armies"].values())
        if t["decided"]:
            assert t["winner"] == t["leader"] == t["ranking"][0]
            assert sorted(t["points"].values(), reverse=True)[:len(t["ranking"])] == [3, 2, 1, 0][:len(t["ranking"])]
            assert all(v >= 0 for v in t["points"].values())
            assert all(a["complete"] for p, a in t["armies"].items() if p in t["ranking"])
        else:
            assert t["points"] is None and t["defeat_markers"] == []
    assert out["points"] == {p: sum(t["points"][p] for t in out["territories"] if t["points"]) for p in players}
    assert sorted(s["player"] for s in out["standings"]) == sorted(players)
    if out["game_over"]:
        assert out["winner"] == out["standings"][0]["player"] and out["points_winner"] in players


@SETTINGS
@given(plays=plays_st, cut=st.integers(0, 90))
def test_a_decision_once_made_stands_and_keeps_its_number(plays, cut):
    players = ["anna", "boris", "vera"]
    full = result("contest", _contest(players, plays))["markers"]
    prefix = result("contest", _contest(players, plays[:cut]))["markers"]
    assert full[:len(prefix)] == prefix


@SETTINGS
@given(seed=st.integers(-(2 ** 63), 2 ** 63 - 1), size=st.integers(0, 60))
def test_the_seeded_shuffle_is_a_permutation_and_replays(seed, size):
    items = list(range(size))
    once = seeded.shuffled(seed, items)
    assert sorted(once) == items and seeded.shuffled(seed, items) == once


def _virtual_game(seed, n, choices):
    """Deal a 24-card roster from `seed`, then play `choices` (card index, territory) as moves, one call per move."""
    players = ["anna", "boris", "vera", "gleb"][:n]
    deck = [{"id": f"c{i:02d}", "symbols": _symbols(1 + (i * 7) % 31)} for i in range(24)]
    dealt = result("deal", {"players": players, "deck": deck, "order": None, "seed": seed, "first_player": None})
    state = {"draw_pile": dealt["draw_pile"], "hands": dealt["hands"], "plays": [], "to_move": dealt["to_move"]}
    outs = []
    for pick, territory in choices:
        mover = state["to_move"]
        if mover is None:
            break
        options = state["hands"][mover] + state["draw_pile"][:1]
        move = {"player": mover, "card": options[pick % len(options)], "territory": territory}
        out = result("play", {"players": players, "deck": deck, **state, "moves": [move]})
        outs.append(out)
        state = out["state"]
    return deck, players, outs


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), n=st.integers(2, 4),
       choices=st.lists(st.tuples(st.integers(0, 5), st.integers(1, 5)), min_size=1, max_size=40))
def test_a_virtual_game_conserves_every_card_and_agrees_with_the_contest_replay(seed, n, choices):
    deck, players, outs = _virtual_game(seed, n, choices)
    for out in outs:
        state = out["state"]
        ids = state["draw_pile"] + [c for p in players for c in state["hands"][p]] + [p["card"] for p in state["plays"]]
        assert sorted(ids) == sorted(d["id"] for d in deck)
        assert all(len(state["hands"][p]) <= 6 for p in players)
        if not out["dead_end"]:
            replay = result("contest", {"players": players, "deck": deck, "plays": state["plays"]})
            assert replay["markers"] == out["markers"] and replay["points"] == out["points"]


json_st = st.recursive(
    st.none() | st.booleans() | st.integers(-(10 ** 30), 10 ** 30) | st.floats(allow_nan=False) | st.text(max_size=8)
    | st.sampled_from(SYMBOLS + ["anna", "boris", "c01"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["cards", "symbols", "armies", "player", "players", "plays", "territory", "card", "deck", "pool",
                         "completed_at", "order", "seed", "first_player", "hands", "draw_pile", "to_move", "moves",
                         "id", "rules"]), inner, max_size=6),
    max_leaves=30)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mode=st.sampled_from(["army", "territory", "contest", "deal", "play"]), case=json_st)
def test_random_input_is_a_result_or_one_malformed_line_never_a_bug(mode, case):
    code, out, err = run_case(mode, json.dumps(case))
    assert code in (0, 2), err
    assert (out == "") == (code == 2) and ("Traceback" not in err)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


def _replace(value, path, new):
    if not path:
        return new
    value = json.loads(json.dumps(value))
    node = value
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = new
    return value


CASES = pathlib.Path(__file__).resolve().parents[1] / "rules" / "cases" / "ordonnance"
VALID = {}
for _path in sorted(CASES.glob("*.case.json")):
    _doc = json.loads(_path.with_name(_path.name.replace(".case.", ".expect.")).read_text(encoding="utf-8"))
    if "exit" not in _doc:
        VALID[_path.name] = (_doc["mode"].split(".")[1], json.loads(_path.read_text(encoding="utf-8")))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(VALID)), pick=st.integers(0, 10 ** 6), new=json_st)
def test_a_valid_case_with_one_value_replaced_is_never_a_bug(name, pick, new):
    mode, case = VALID[name]
    paths = list(_paths(case))
    mutated = _replace(case, paths[pick % len(paths)], new)
    code, out, err = run_case(mode, json.dumps(mutated))
    assert code in (0, 2), err


def test_the_seeded_lot_is_fair_over_many_seeds():
    """The lot (draw 0 modulo the players) picks each of four players about equally often over 4,000 seeds."""
    players = ["anna", "boris", "vera", "gleb"]
    tally = {p: 0 for p in players}
    for seed in range(4000):
        tally[seeded.lot(seed, players)] += 1
    assert all(900 <= n <= 1100 for n in tally.values()), tally
