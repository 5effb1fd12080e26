"""Named values of the Red Plains engine: every outcome, side, facing and order kind in one place."""
from __future__ import annotations

# Sides (W2.1) and facings (W3.4)
NORTH, SOUTH = "north", "south"
SIDES = (NORTH, SOUTH)
FACINGS = ("N", "E", "S", "W")

# Sides of an attack relative to the target's facing (W3.5), in the contract's order
FRONT, LEFT, RIGHT, REAR = "front", "left", "right", "rear"
ATTACK_SIDES = (FRONT, LEFT, RIGHT, REAR)

# Unit statuses (W3.7)
READY, FLEEING, DESTROYED, DISPERSED, WITHDRAWN = "ready", "fleeing", "destroyed", "dispersed", "withdrawn"
STATUSES = (READY, FLEEING, DESTROYED, DISPERSED, WITHDRAWN)
OUT_OF_BATTLE = (DESTROYED, DISPERSED, WITHDRAWN)

# Melee results (W28, W35.4) and meeting results (W29)
REPELLED, PUSHED_BACK, ROUTED, ROUTED_AGAIN = "repelled", "pushed_back", "routed", "routed_again"
ATTACK_RESULTS = (REPELLED, PUSHED_BACK, ROUTED, DESTROYED, ROUTED_AGAIN)
RETREATS = "retreats"
KIND_ATTACK, KIND_MEETING = "attack", "meeting"

# Shooting checks (W32)
EFFECT_NONE, EFFECT_STOPPED, EFFECT_RETREATS = "none", "stopped", "retreats"
AGAINST_IMPETUS, AGAINST_STEADINESS = "impetus", "steadiness"

# End of battle (W39)
TOTAL_DEFEAT, DEFEAT, DRAW = "total_defeat", "defeat", "draw"

# Stakes (W7.2)
LOW, HIGH = "low", "high"

# Orders (W15, W16, W41.10)
ORDINARY, SPECIAL = "ordinary", "special"
SHOOT, RETREAT, REFORM, MOVE, WAIT = "shoot", "retreat", "reform", "move", "wait"
MASSED_SHOOT, HOLD, DECISIVE_ATTACK, REGROUP, DRAGON = "massed_shoot", "hold", "decisive_attack", "regroup", "dragon"
ORDINARY_TYPES = (SHOOT, RETREAT, REFORM, MOVE, WAIT)
SPECIAL_TYPES = (MASSED_SHOOT, HOLD, DECISIVE_ATTACK, REGROUP)
ORDER_TYPES = ORDINARY_TYPES + SPECIAL_TYPES + (DRAGON,)
CAVALRY_ACTIONS = ("move", "retreat", "reform_left", "reform_right")
CAVALRY_FIRST = ("move", "reform_left", "reform_right")

# Banners (W12)
PHOENIX, TIGER, DRAGON_BANNER, CRAB = "phoenix", "tiger", "dragon", "crab"
BANNERS = (PHOENIX, TIGER, DRAGON_BANNER, CRAB)

# Modifier stats and sources (W41.3)
MOD_STATS = ("steadiness", "impetus", "armour")
MOD_SOURCES = ("charisma", "brawler", "moderator")

# Steps and priorities (W18, W19)
STEPS = ("S1", "S2", "S3", "S4", "S5", "S6")
PRIORITIES = ("P0", "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8")
