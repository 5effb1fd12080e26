"""The «Орда» board drawn in Python (larp/orda/board_svg.py): the very SVG the template it replaced wrote (kept
below as the reference), for a table's board with cities, tokens, links, effects, moves and targets and for the data
set editor's board with its marks and its hexes off the board; well-formed, every text escaped, in Russian."""
import re
from xml.etree import ElementTree

from django.template import Context, Template
from django.utils import translation

from larp.orda import selectors
from larp.orda.board_svg import board_svg

# templates/orda/_board.html as it was before the board was drawn in Python.
TEMPLATE = """{% load i18n %}<svg class="orda-board" viewBox="{{ board.viewbox }}" role="img" aria-label="{% translate 'The board' %}" xmlns="http://www.w3.org/2000/svg">
{% for c in board.cells %}<g class="hex{% if c.beyond %} beyond{% endif %}{% if c.move %} can-move{% endif %}{% if c.target %} can-target{% endif %}{% if c.selected %} selected{% endif %}{% if c.off %} off{% endif %}{% if c.mark %} mark-{{ c.mark }}{% endif %}" data-hex="{{ c.key }}">
  <polygon class="cell" points="{{ c.points }}"/>
  {% if c.city %}<polygon class="city {{ c.city.kind }}" points="{{ c.inner }}" fill="{{ c.city.fill }}"/>
    {% if c.city.durability %}<text class="city-left" x="{{ c.x }}" y="{{ c.y_city }}" text-anchor="middle">{% if c.city.destroyed %}✕{% else %}{{ c.city.left }}/{{ c.city.durability }}{% endif %}</text>{% endif %}{% endif %}
  {% if c.unit %}{% if c.unit.link %}<a href="{{ c.unit.link }}">{% endif %}<g class="token" data-unit="{{ c.unit.id }}">
    <circle cx="{{ c.x }}" cy="{{ c.y }}" r="17" fill="{{ c.unit.colour }}"/>
    <text x="{{ c.x }}" y="{{ c.y_short }}" text-anchor="middle" class="short">{{ c.unit.short }}</text>
    <text x="{{ c.x }}" y="{{ c.y_hp }}" text-anchor="middle" class="hp">{{ c.unit.left }}/{{ c.unit.health }}</text>
    {% if c.unit.effects %}<circle cx="{{ c.bx }}" cy="{{ c.y_city }}" r="6" class="badge"/><text x="{{ c.bx }}" y="{{ c.by_text }}" text-anchor="middle" class="badge-n">{{ c.unit.effects|length }}</text>{% endif %}
    <title>{{ c.unit.name }} ({{ c.unit.faction_name }}) — {% translate "health value" %} {{ c.unit.left }}/{{ c.unit.health }}{% for e in c.unit.effects %}; {{ e }}{% endfor %}</title>
  </g>{% if c.unit.link %}</a>{% endif %}{% endif %}
  {% if not c.unit and not c.city %}<text x="{{ c.x }}" y="{{ c.y_coord }}" text-anchor="middle" class="coord">{{ c.q }},{{ c.r }}</text>{% endif %}
</g>{% endfor %}
</svg>
"""
SVG = "{http://www.w3.org/2000/svg}"


def same(text: str) -> str:
    """The markup with the template's line breaks and indentation between tags left out."""
    return re.sub(r">\s+<", "><", re.sub(r"\s*\n\s*", " ", text.strip()))


def a_board():
    hexes = [[q, r] for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3]
    cities = [selectors.city_view({"id": "c1", "kind": "capital", "faction": "rus", "hex": [0, 0], "colour": "red",
                                   "durability": 3, "damage": 1, "destroyed": False}),
              selectors.city_view({"id": "c2", "kind": "city", "faction": "china", "hex": [2, -1],
                                   "colour": "green", "durability": 2, "damage": 2, "destroyed": True}),
              selectors.city_view({"id": "c3", "kind": "city", "faction": "china", "hex": [-2, 1],
                                   "colour": None, "durability": None, "damage": 0})]
    units = [{"id": "r1", "name": 'Дружина <b>"князя"</b> & Ко', "faction_name": "Русь", "colour": "#2f5d8a",
              "short": "ДР", "hex": [1, 0], "left": 2, "health": 3, "effects": ["Яд", "Ярость <i>"],
              "link": "?unit=r1&x=<y>"},
             {"id": "m1", "name": "Налётчик", "faction_name": "Северная Монголия", "colour": "#a23b2a",
              "short": "НА", "hex": [0, 0], "left": 2, "health": 2, "effects": []},
             {"id": "m2", "name": "Вор", "faction_name": "Северная Монголия", "colour": "#a23b2a", "short": "ВО",
              "hex": [-1, 2], "left": 1, "health": 1, "effects": [], "link": ""}]
    return selectors.board(hexes, cities=cities, units=units, beyond=[[3, -3], [3, -2]],
                           moves={(0, 1): {"path": [[0, 1]]}}, targets={(-1, 2): {"target": "m2"}},
                           selected=[1, 0], marks={(2, 1): "red", (-3, 3): "red green"})


def test_the_board_is_the_svg_the_template_wrote():
    board = a_board()
    board["cells"][0]["off"] = True          # the data set editor's frame around the board
    for language in ("ru", "en"):
        with translation.override(language):
            written = Template(TEMPLATE).render(Context({"board": board}))
            drawn = str(board_svg(board))
        assert same(drawn) == same(written), language
    classes = {c.get("class") for c in ElementTree.fromstring(drawn).iter(f"{SVG}g")}
    for expected in ("hex off", "hex beyond", "hex can-move", "hex can-target", "hex selected", "hex mark-red",
                     "hex mark-red green", "token"):
        assert any(expected in (c or "") for c in classes), expected


def test_every_text_is_escaped_and_the_page_says_it_in_russian():
    with translation.override("ru"):
        drawn = str(board_svg(a_board()))
    svg = ElementTree.fromstring(drawn)       # well-formed: a name with <b> and & did not break it
    titles = [t.text for t in svg.iter(f"{SVG}title")]
    assert 'Дружина <b>"князя"</b> & Ко (Русь) — здоровье 2/3; Яд; Ярость <i>' in titles
    assert svg.get("aria-label") == "Игровое поле"
    links = [a.get("href") for a in svg.iter(f"{SVG}a")]
    assert links == ["?unit=r1&x=<y>"]       # the one unit with a link; an empty link is none
    left = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "city-left"]
    assert sorted(left) == ["2/3", "✕"]


def test_a_value_the_data_set_does_not_give_yet_is_a_question_mark_not_none():
    board = a_board()
    (cell,) = [c for c in board["cells"] if c["unit"] and c["unit"]["id"] == "m1"]
    cell["unit"] = {**cell["unit"], "left": None, "health": None}
    with translation.override("ru"):
        svg = ElementTree.fromstring(str(board_svg(board)))
    hp = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "hp"]
    assert "?/?" in hp and not any("None" in (t.text or "") for t in svg.iter())
