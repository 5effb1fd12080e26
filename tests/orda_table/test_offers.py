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


def test_the_princes_order_offers_only_values_its_targets_can_take(tiny_game, orda_table, player, client_for):
    """Found by the rehearsal: the form offered «Дальность» for a melee ally and the act was refused (400). Every
    pair of a target and a value the form offers must be one the engine accepts."""
    import lxml.html

    from larp.orda import situation as sit

    c = client_for(player)
    url = reverse("orda:table", args=[tiny_game.pk, orda_table.pk])
    c.post(reverse("orda:act", args=[tiny_game.pk, orda_table.pk, "turn_start"]))
    doc = lxml.html.fromstring(c.get(url + "?unit=rus-ivan_iii").content.decode())
    (form,) = doc.xpath("//form[@class='ability']")
    targets = form.xpath(".//select[@name='target']/option/@value")
    params = form.xpath(".//select[@name='param']/option/@value")
    assert targets == ["rus-axe_retainer-1"] and "range" not in params and "attack" in params
    case = services.current(orda_table)["case"]
    for target in targets:
        for param in params:
            sit.run("ability", {**case, "ability": {"unit": "rus-ivan_iii", "trait": "princes_order",
                                                    "target": target, "param": param}})
    response = c.post(reverse("orda:act", args=[tiny_game.pk, orda_table.pk, "ability"]),
                      {"unit": "rus-ivan_iii", "trait": "princes_order", "target": targets[0], "param": params[-1]})
    assert response.status_code == 302
