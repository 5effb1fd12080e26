from django.urls import path

from . import views
from .acts import door

app_name = "ordonnance"
urlpatterns = [
    path("new/", views.new, name="new"),
    path("decks/", views.decks, name="decks"),
    path("rules-card.pdf", views.rules_card_pdf, name="rules_card"),
    path("decks/import", views.deck_import, name="deck_import"),
    path("decks/<int:deck_id>/", views.deck, name="deck"),
    path("decks/<int:deck_id>/export.yaml", views.deck_export, name="deck_export"),
    path("decks/<int:deck_id>/delete", views.deck_delete, name="deck_delete"),
    path("<int:table_id>/", views.table_page, name="table"),
    path("<int:table_id>/projector/", views.projector, name="projector"),
    path("<int:table_id>/lot", door, {"action": "lot"}, name="lot"),
    path("<int:table_id>/play", door, {"action": "play"}, name="play"),
    path("<int:table_id>/turn", door, {"action": "turn"}, name="override_turn"),
    path("<int:table_id>/end", door, {"action": "end"}, name="override_end"),
    path("<int:table_id>/undo", door, {"action": "undo"}, name="undo"),
    path("<int:table_id>/protocol.pdf", views.protocol_pdf, name="protocol"),
    path("<int:table_id>/score-sheet.pdf", views.score_sheet_pdf, name="score_sheet"),
]
