"""The table: a game's laid cards, replayed play by play (C8, C11-C15), shared by `contest` and `play`.

Plays are numbered by the caller (a log's 1-based index; refused plays keep their number). After
each laid card the territory it went to is examined first, then, when the roster is known (the
pool has shrunk everywhere), every other undecided territory in ascending number (C11, C12).
"""
from __future__ import annotations

from .data import Rules
from .errors import OrdonnanceCaseError
from .outcomes import Reason
from .parse import Deck
from .territory import Entry, analyse, ranking, winner_of


class Table:
    def __init__(self, rules: Rules, seats: tuple[str, ...], deck: Deck | None):
        self.rules = rules
        self.seats = seats
        self.numbers = tuple(range(1, rules.territories + 1))
        self.cards: dict[int, dict[str, list[int]]] = {t: {p: [] for p in seats} for t in self.numbers}
        self.completed: dict[int, dict[str, int]] = {t: {} for t in self.numbers}
        self.pool: dict[int, int] | None = deck.copies() if deck is not None else None
        self.winner: dict[int, str | None] = {t: None for t in self.numbers}
        self.decided_at: dict[int, int | None] = {t: None for t in self.numbers}
        self.marker_of: dict[int, int | None] = {t: None for t in self.numbers}
        self.defeats: dict[int, list[dict]] = {t: [] for t in self.numbers}
        self.markers: list[dict] = []
        self.game_over = False
        self.ended_at: int | None = None
        self.dead_end = False
        self.last_play = 0

    # -- laying ------------------------------------------------------------------------------
    def refusal(self, player: str, territory: int) -> Reason | None:
        """Why this play may not be laid now (C13 first, then C8), or None."""
        if self.game_over:
            return Reason.GAME_OVER
        if not self.has_room(player, territory):
            return Reason.TERRITORY_FULL
        return None

    def has_room(self, player: str, territory: int) -> bool:
        return len(self.cards[territory][player]) < self.rules.cards_per_army

    def can_lay_somewhere(self, player: str) -> bool:
        return any(self.has_room(player, t) for t in self.numbers)

    def lay(self, number: int, player: str, territory: int, mask: int, where: str) -> dict:
        """Lay one card (refusal() must be None); returns the markers this play laid."""
        if self.pool is not None:
            if self.pool.get(mask, 0) <= 0:
                raise OrdonnanceCaseError(where, "more copies of this card laid than the deck holds (C4)")
            self.pool[mask] -= 1
        self.last_play = number
        army = self.cards[territory][player]
        army.append(mask)
        new_defeats = []
        if len(army) == self.rules.cards_per_army:
            self.completed[territory][player] = number
            if self.winner[territory] is not None and self.winner[territory] != player:
                defeat = {"player": player, "at": number}   # C12: the loser's fourth card brings it
                self.defeats[territory].append(defeat)
                new_defeats.append({"territory": territory, **defeat})
        new_markers = []
        order = [territory] if self.pool is None else [territory, *(t for t in self.numbers if t != territory)]
        for t in order:
            if self.winner[t] is None and self.completed[t]:
                won = winner_of(self.rules, self.entries(t), self.pool)
                if won is not None:
                    marker, defeats = self._award(t, won, number)
                    new_markers.append(marker)
                    new_defeats += defeats
        return {"markers": new_markers, "defeat_markers": new_defeats}

    def _award(self, territory: int, player: str, number: int) -> tuple[dict, list[dict]]:
        """C12: the next victory marker to `player`; defeat markers at once to the other complete armies."""
        self.winner[territory] = player
        self.decided_at[territory] = number
        self.marker_of[territory] = len(self.markers) + 1
        marker = {"marker": len(self.markers) + 1, "territory": territory, "player": player, "at": number}
        self.markers.append(marker)
        defeats = []
        for other in self.seats:
            if other != player and other in self.completed[territory]:
                defeat = {"player": other, "at": number}
                self.defeats[territory].append(defeat)
                defeats.append({"territory": territory, **defeat})
        if len(self.markers) == self.rules.territories:   # C13: the fifth marker ends the game
            self.game_over = True
            self.ended_at = number
        return marker, defeats

    def end_in_dead_end(self) -> dict:
        """C13 ruling: nobody can lay; each undecided territory goes to its strongest complete army."""
        number = self.last_play
        new_markers, new_defeats = [], []
        for t in self.numbers:
            if self.winner[t] is None:
                ranked = ranking(self.rules, self.entries(t))
                if ranked:
                    marker, defeats = self._award(t, ranked[0].player, number)
                    new_markers.append(marker)
                    new_defeats += defeats
        self.game_over = True
        self.dead_end = True
        self.ended_at = number
        return {"markers": new_markers, "defeat_markers": new_defeats}

    def entries(self, territory: int) -> list[Entry]:
        return [Entry(p, tuple(self.cards[territory][p]), self.completed[territory].get(p)) for p in self.seats]

    # -- the result ----------------------------------------------------------------------------
    def territory_json(self, t: int) -> dict:
        analysis = analyse(self.rules, self.entries(t), self.pool)
        decided = self.winner[t] is not None
        points = None
        if decided:
            places = {p: i for i, p in enumerate(analysis["ranking"])}
            scale = self.rules.points_by_place
            points = {p: scale[places[p]] if places.get(p, len(scale)) < len(scale) else 0 for p in self.seats}
        armies = {}
        for army in analysis["armies"]:
            army = dict(army)
            armies[army.pop("player")] = army
        return {"territory": t, "decided": decided, "winner": self.winner[t], "marker": self.marker_of[t],
                "decided_at": self.decided_at[t], "defeat_markers": list(self.defeats[t]),
                "leader": analysis["leader"], "ranking": analysis["ranking"], "points": points,
                "armies": armies}

    def result(self) -> dict:
        territories = [self.territory_json(t) for t in self.numbers]
        won = {p: sum(1 for t in self.numbers if self.winner[t] == p) for p in self.seats}
        last = {p: max((m["marker"] for m in self.markers if m["player"] == p), default=None) for p in self.seats}
        holders = sorted((p for p in self.seats if won[p]), key=lambda p: (-won[p], last[p]))
        standings = [{"player": p, "territories": won[p], "last_marker": last[p], "place": i + 1}
                     for i, p in enumerate(holders)]
        standings += [{"player": p, "territories": 0, "last_marker": None, "place": len(holders) + 1}
                      for p in self.seats if not won[p]]
        points = {p: sum(t["points"][p] for t in territories if t["points"] is not None) for p in self.seats}
        winner = points_winner = None
        if self.game_over and holders:
            winner = holders[0]
            order = [s["player"] for s in standings]   # C15: a tie on points goes by the C14 ranking
            points_winner = min(self.seats, key=lambda p: (-points[p], order.index(p)))
        return {"markers": list(self.markers), "territories": territories, "game_over": self.game_over,
                "ended_at": self.ended_at, "territories_won": won, "winner": winner,
                "standings": standings, "points": points, "points_winner": points_winner}

