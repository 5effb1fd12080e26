"""Named values of the «Орда» engine: every outcome, refusal code and effect kind in one place."""
from __future__ import annotations

# Modes (O24)
SETUP, MOVE, ATTACK, ODDS, ABILITY, TURN = "setup", "move", "attack", "odds", "ability", "turn"

# Game modes and sides
SKIRMISH, BORDER, CONQUEST = "skirmish", "border", "conquest"
RUS_CHINA, MONGOLIA = "rus_china", "mongolia"

# Where a unit is
BOARD, RESERVE, INDICATOR, DEAD = "board", "reserve", "indicator", "dead"
WHERE = (BOARD, RESERVE, INDICATOR, DEAD)

# Activation steps (O12)
STEP_MOVE, STEP_ATTACK, STEP_ACTION = "move", "attack", "action"
STEPS = (STEP_MOVE, STEP_ATTACK, STEP_ACTION)

# Counter-measures (O16)
DEFENCE, RETREAT = "defence", "retreat"

# Item sources of an effective value (O19)
PRINTED, GARRISON, MINORITY, EVENT, MODERATOR = "printed", "garrison", "minority", "event", "moderator"
MODIFIER_SOURCES = (EVENT, MODERATOR)

# Classes
LEADER, COMBAT, RANGED, SUPPORT = "leader", "combat", "ranged", "support"

# Stages of orda.turn
START, END = "start", "end"

# Effect kinds with a value / without one (O24)
VALUE_EFFECTS = ("axe", "princes_order", "young_herd", "icy_breath")
MARK_EFFECTS = ("pursuit", "golden_horde", "lance", "mixed_poisons", "theft")
EFFECT_KINDS = VALUE_EFFECTS + MARK_EFFECTS
EFFECT_PARAMS = ("attack", "defence", "speed", "range")

# Victory reasons (O22)
LEADERS_AND_CAPITALS = "leaders_and_capitals"
BORDER_HELD = "border_held"
TOURS_ELAPSED = "tours_elapsed"
MONGOL_CAPITALS_DESTROYED = "mongol_capitals_destroyed"
CITIES_DESTROYED = "cities_destroyed"
RESERVES_EXHAUSTED = "reserves_exhausted"

# Refusal codes: (rule, code)
NOT_ACTIVE_FACTION = ("O12", "not_active_faction")
UNITS_PER_TURN = ("O12", "units_per_turn")
ACTIVATION_ORDER = ("O12", "activation_order")
NOT_ON_BOARD = ("O12", "not_on_board")
NOT_ENEMY = ("O15", "not_enemy")
OUT_OF_REACH = ("O15", "out_of_reach")
BAD_LINE = ("O21", "bad_line")
CAMOUFLAGED = ("O21", "camouflaged")
NO_AIMED_SHOT = ("O21", "no_aimed_shot")
RETREAT_NOT_ALLOWED = ("O16", "retreat_not_allowed")
RETREAT_HEX_NOT_FREE = ("O16", "retreat_hex_not_free")
PUSH_HEX_INVALID = ("O21", "push_hex_invalid")
NOT_ADJACENT_STEP = ("O13", "not_adjacent_step")
TOO_LONG = ("O13", "too_long")
REVISIT = ("O13", "revisit")
OFF_BOARD = ("O13", "off_board")
ENEMY_IN_PATH = ("O13", "enemy_in_path")
END_NOT_FREE = ("O13", "end_not_free")
ENEMY_CITY = ("O20", "enemy_city")
NOT_ACTION_TRAIT = ("O21", "not_action_trait")
TRAIT_BLOCKED = ("O21", "trait_blocked")
TARGET_INVALID = ("O21", "target_invalid")
HEX_NOT_EMPTY = ("O21", "hex_not_empty")
SUMMON_HEX_INVALID = ("O11", "summon_hex_invalid")
SUMMON_NEXT_INVALID = ("O11", "summon_next_invalid")
GAME_OVER = ("O22", "game_over")

# Setup problems (orda.setup)
ERROR, WARNING = "error", "warning"
