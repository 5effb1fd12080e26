"""Named values of every outcome the engine reports (T37, T38): one place, no strings scattered around."""
from __future__ import annotations

# unit steadiness test (T24), rally (T25)
HOLDS = "holds"
FLEES = "flees"
DESTROYED = "destroyed"
STOPS = "stops"

# disorderly movement (T16)
EXEMPT = "exempt"
STAYS = "stays"
IMPETUOUS = "impetuous"
SHOOTS = "shoots"
RETREATS = "retreats"
CONTINUES = "continues"

# per-warrior disorder tests (T15.5, T15.8 ...): which rule sets the value
RULE_FRONT = "front"
RULE_STEADINESS = "steadiness"

# loyalty of mercenary generals (T28)
NO_TEST = "no_test"
PASSED = "passed"
TREASON = "treason"
LOYAL = "loyal"
WITHDRAWN = "withdrawn"
DEFECTED = "defected"

# kinds of fire (T20.4)
FIRE_NORMAL = "normal"
FIRE_AREA = "area"
FIRE_LINE = "line"
FIRE_POINT_BLANK = "point_blank"

# where an attack comes from (T23)
FRONT = "front"
FLANK = "flank"
REAR = "rear"
DIRECTIONS = (FRONT, FLANK, REAR)

# special formations (T10.4)
CIRCLE = "circle"
TESTUDO = "testudo"

# kinds of attack, for which protection counts (T7.4)
ATTACK_MELEE = "melee"
ATTACK_SHOOTING = "shooting"
ATTACK_CLASH_INFANTRY = "clash_by_infantry"
ATTACK_CLASH_CAVALRY = "clash_by_cavalry"

# items of a unit test, in the order of T24.2
ITEM_STEADINESS = "steadiness"
ITEM_CIRCLE = "circle"
ITEM_RANKS = "ranks"
ITEM_KILLED = "killed"
ITEM_GENERAL = "general"
ITEM_BROKEN = "broken"
ITEM_MODIFIER = "modifier"

# dice lists of a unit (T37.4), in the order they are consumed
STRIKE = "strike"
RAIN = "rain"
TEST = "test"
DISORDER = "disorder"
DEATH = "death"
DICE_LISTS = (STRIKE, RAIN, TEST, DISORDER, DEATH)

# strategic manoeuvring (T31)
EDGE = "edge"
CLEAR = "clear"
