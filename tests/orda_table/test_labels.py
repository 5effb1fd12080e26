"""The words of the Orda engine's named values, translated one at a time in the language the page is made in."""
from django.utils import translation

from larp.orda import labels


def test_each_word_is_said_in_the_pages_language_and_an_unknown_name_as_it_is():
    with translation.override("ru"):
        assert labels.param("health") == "здоровье" and labels.where("board") == "на поле"
        assert labels.refusal("game_over") == "Бой окончен (O22)."
        assert labels.refusal("no such code") == "Правила этого не позволяют."
        assert labels.reason(None) == "" and labels.faction("no_such_faction") == "no_such_faction"
    with translation.override("en"):
        assert labels.param("health") == "health value" and labels.where("board") == "on the board"
        assert labels.side("mongolia") == "Mongolia" and labels.source("moderator") == "by the moderator"
