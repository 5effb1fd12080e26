"""{% your_move %}: on a player's tablet, whether it is this seat's move at the table (a roll, orders, a card),
marked in the page for static/js/your-turn.js, which announces the change to «your move» after a live refresh
(a banner, and where the player turned them on, a short vibration and a beep).

It reads the page's context: `seat` (a player's seat at a side; nothing is drawn for a moderator), `open` (the
acts open to this seat: larp/tables/acts.py `open_for`) and, on a page listing the player's sides,
`my_sides[*].open`. A system whose move is not an act of the player (the tactical battle, run by the moderator
for both sides) puts `your_move` (True/False) in the context itself.
"""
from django import template

register = template.Library()

# The acts that are a side's move, per system: what the player must do before the table goes on. Acts a player
# may press at any time (calculators, a messenger's halt, randomness, Orda's placing before the first turn while
# the first faction may begin it) are not a move.
TURN_ACTS = {
    "red-plains": {"deploy", "confirm", "stake", "roll", "orders", "scout"},
    "orda": {"turn_start", "move", "declare", "counter", "attack", "ability", "turn_end"},
    "tactical": {"move-target", "move-roll", "move-pass", "move-halt", "move-offer", "move-answer", "move-lay",
                 "move-play"},
    "ordonnance": {"play"},
}


def is_your_move(context) -> bool:
    given = context.get("your_move")
    if given is not None:
        return bool(given)
    table = context.get("table")
    opened = set(context.get("open") or ())
    for entry in context.get("my_sides") or ():
        opened |= set(entry.get("open") or ())
    return bool(table is not None and opened & TURN_ACTS.get(table.system, set()))


@register.inclusion_tag("tables/partials/your_move.html", takes_context=True)
def your_move(context) -> dict:
    seat = context.get("seat")
    player = seat is not None and not seat.moderator and seat.side is not None
    return {"player": player, "now": player and is_your_move(context)}
