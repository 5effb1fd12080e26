"""What the table's page offers a unit: only what the rules allow now."""
from django.urls import reverse

from larp.orda import services
from larp.tables.access import seat


def test_only_legal_targets_of_an_action_trait_are_offered(tiny_game, orda_table, player, client_for):
    c = client_for(player)
    url = reverse("orda:table", args=[tiny_game.pk, orda_table.pk])
    c.post(reverse("orda:act", args=[tiny_game.pk, orda_table.pk, "turn_start"]))
    page = c.get(url + "?unit=rus-ivan_iii").content.decode()
    form = page.split('class="ability"')[1].split("</form>")[0]
    assert 'value="rus-axe_retainer-1"' in form                  # an ally next to Иван III
    assert 'value="nm-raider-1"' not in form and 'value="rus-archer-1"' not in form   # an enemy; too far
    services.act(orda_table.pk, player, seat(player, tiny_game.pk, orda_table.pk), "ability",
                 {"unit": "rus-ivan_iii", "trait": "princes_order", "target": "rus-axe_retainer-1", "param": "speed"})
    page = c.get(url + "?unit=rus-ivan_iii").content.decode()
    assert 'class="ability"' not in page                          # his key action is spent
