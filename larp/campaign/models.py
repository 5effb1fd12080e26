"""The campaign: games, factions, the map (provinces, sea zones, adjacency) and relations.

Everything belongs to a game: one installation runs several games at once.
Scenario ids (`code`) are unique within a game and are the ids the rules
engine sees (docs/adjudication.md).
"""
from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from larp.i18n import BilingualName

code_validator = RegexValidator(r"^[a-z][a-z0-9_\-]*$", _("Use lower-case Latin letters, digits, '_' and '-'."))
colour_validator = RegexValidator(r"^#[0-9a-fA-F]{6}$", _("A colour like #1a237e."))


class Game(models.Model):
    title = models.CharField(_("title"), max_length=200, unique=True)
    scenario = models.CharField(_("scenario"), max_length=100, help_text=_("The scenario the game was created from."))
    rules = models.JSONField(
        _("rule tables"),
        default=dict,
        help_text=_("The scenario's rules block (phase lengths, army limit, loss table, specials); moderators may tune it."),
    )
    seed = models.BigIntegerField(_("random seed"), null=True, blank=True, help_text=_(
        "A seed set by hand (tests, demos): the dice are not random. Empty: the dice stream's own secret."))
    scenario_header = models.JSONField(
        _("scenario header"), default=dict, blank=True,
        help_text=_("The scenario file's own header besides its id (names, year), kept to write the file back."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # A rehearsal copy (larp/rehearsal, docs/rehearsal.md): bots play it; it is marked «Репетиция» on every page
    # and never listed as a real game. Deleting the original deletes its copies.
    rehearsal_of = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="rehearsals",
        verbose_name=_("rehearsal of"), help_text=_("Set on a rehearsal copy: the game it copies."))
    rehearsal = models.JSONField(
        _("rehearsal run"), default=dict, blank=True,
        help_text=_("A rehearsal copy's run: its options, state, progress and report."))

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.title

    @property
    def is_rehearsal(self) -> bool:
        return self.rehearsal_of_id is not None

    @property
    def army_max_men(self) -> int:
        return int(self.rules.get("army_max_men", 60000))


class Faction(BilingualName):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="factions", verbose_name=_("game"))
    code = models.CharField(_("id"), max_length=50, validators=[code_validator])
    colour = models.CharField(_("colour"), max_length=7, validators=[colour_validator])
    crusader = models.BooleanField(_("crusader state"), default=False)
    capital = models.OneToOneField(
        "Province",
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="capital_of",
        verbose_name=_("capital"),
    )
    specials = models.JSONField(_("specials"), default=list, blank=True, help_text=_("Ids of the faction's specials (R10)."))

    class Meta:
        verbose_name = _("faction")
        verbose_name_plural = _("factions")
        ordering = ["game", "code"]
        constraints = [models.UniqueConstraint(fields=["game", "code"], name="faction_code_unique_in_game")]


class Province(BilingualName):
    LAND = "land"
    SEA = "sea"
    DOMAINS = [(LAND, _("land")), (SEA, _("sea zone"))]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="provinces", verbose_name=_("game"))
    code = models.CharField(_("id"), max_length=50, validators=[code_validator])
    domain = models.CharField(_("kind"), max_length=4, choices=DOMAINS, default=LAND)
    owner = models.ForeignKey(
        Faction, on_delete=models.SET_NULL, null=True, blank=True, related_name="provinces", verbose_name=_("owner")
    )
    start_owner = models.ForeignKey(
        Faction,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="start_provinces",
        verbose_name=_("owner at the start of the game"),
        help_text=_("Militia (R9) and mountain country (R10) look at this."),
    )
    fortress = models.BooleanField(_("fortress"), default=False)
    special = models.CharField(_("city special"), max_length=50, blank=True, help_text=_("e.g. constantinople (R10)"))
    latitude = models.FloatField(_("latitude"))
    longitude = models.FloatField(_("longitude"))
    # Its point on the game's map picture (MapPicture), in the picture's pixels; none without a picture.
    map_x = models.FloatField(null=True, blank=True)
    map_y = models.FloatField(null=True, blank=True)

    class Meta:
        verbose_name = _("province")
        verbose_name_plural = _("provinces")
        ordering = ["game", "domain", "code"]
        constraints = [
            models.UniqueConstraint(fields=["game", "code"], name="province_code_unique_in_game"),
            models.CheckConstraint(
                condition=Q(domain="land") | (Q(owner__isnull=True) & Q(fortress=False)),
                name="sea_zone_has_no_owner_or_fortress",
            ),
        ]

    @property
    def is_sea(self) -> bool:
        return self.domain == self.SEA


class MapPicture(models.Model):
    """The picture a game's map is drawn on (its scenario's map, checked by the editor): places stand at their
    map_x, map_y. A game without one is drawn from the provinces' latitude and longitude."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="map_picture")
    name = models.CharField(max_length=100)          # its file name in the scenario's .zip: map.png
    content_type = models.CharField(max_length=40)
    body = models.BinaryField()
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    key = models.CharField(max_length=16)            # names these bytes (the address changes with them)

    def __str__(self) -> str:
        return f"{self.game} — {self.name}"


class Adjacency(models.Model):
    """An undirected border (land-land), coast (land-sea) or sea border, stored once with a < b."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="adjacencies")
    a = models.ForeignKey(Province, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Province, on_delete=models.CASCADE, related_name="+")

    class Meta:
        verbose_name = _("border")
        verbose_name_plural = _("borders")
        constraints = [
            models.UniqueConstraint(fields=["a", "b"], name="adjacency_once"),
            models.CheckConstraint(condition=Q(a__lt=F("b")), name="adjacency_ordered_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.a} — {self.b}"


class Relation(models.Model):
    ALLIANCE = "alliance"
    PASSAGE = "passage"
    KINDS = [(ALLIANCE, _("alliance")), (PASSAGE, _("right of passage"))]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="relations", verbose_name=_("game"))
    kind = models.CharField(_("kind"), max_length=10, choices=KINDS)
    from_faction = models.ForeignKey(
        Faction, on_delete=models.CASCADE, related_name="+", verbose_name=_("from"),
        help_text=_("For a passage: the faction that grants it."),
    )
    to_faction = models.ForeignKey(
        Faction, on_delete=models.CASCADE, related_name="+", verbose_name=_("to"),
        help_text=_("For a passage: the faction that may pass."),
    )

    class Meta:
        verbose_name = _("relation")
        verbose_name_plural = _("relations")
        constraints = [
            models.UniqueConstraint(fields=["kind", "from_faction", "to_faction"], name="relation_once"),
            models.CheckConstraint(condition=~Q(from_faction=F("to_faction")), name="relation_not_self"),
        ]

    def __str__(self) -> str:
        arrow = "↔" if self.kind == self.ALLIANCE else "→"
        return f"{self.get_kind_display()}: {self.from_faction} {arrow} {self.to_faction}"


class SpecialState(models.Model):
    """The state of one stateful special (R10): meander miracle used, victory march lost, greek fire charges."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="special_states", verbose_name=_("game"))
    special = models.CharField(_("special"), max_length=50)
    state = models.JSONField(_("state"), default=dict)

    class Meta:
        verbose_name = _("special's state")
        verbose_name_plural = _("specials' state")
        constraints = [models.UniqueConstraint(fields=["game", "special"], name="special_state_once")]

    def __str__(self) -> str:
        return f"{self.special}: {self.state}"


class Membership(models.Model):
    """Who may do what in a game: moderators see and change everything; players belong to one faction."""

    MODERATOR = "moderator"
    PLAYER = "player"
    ROLES = [(MODERATOR, _("moderator")), (PLAYER, _("player"))]

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("game"))
    role = models.CharField(_("role"), max_length=10, choices=ROLES)
    faction = models.ForeignKey(
        Faction, on_delete=models.CASCADE, null=True, blank=True, related_name="players", verbose_name=_("faction")
    )

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="one_role_per_game"),
            # A player belongs to one faction of one game.
            models.UniqueConstraint(fields=["user"], condition=Q(role="player"), name="player_in_one_game"),
            models.CheckConstraint(
                condition=(Q(role="player") & Q(faction__isnull=False)) | (Q(role="moderator") & Q(faction__isnull=True)),
                name="player_has_faction_moderator_has_none",
            ),
        ]

    def __str__(self) -> str:
        who = self.faction if self.faction_id else self.get_role_display()
        return f"{self.user} — {self.game}: {who}"


class AuditEntry(models.Model):
    """Every moderator act and every automatic close: who, when, what, why (R3, R14)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="audit_entries")
    at = models.DateTimeField(default=timezone.now, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    action = models.CharField(max_length=40)
    detail = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        db_table = "turns_auditentry"  # the table it was created as, kept when the model moved here
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.at:%H:%M:%S} {self.action}"
