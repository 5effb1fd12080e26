"""A whole game to one JSON document and back (docs/gamefile.md).

The document carries every row of every model that belongs to the game
(`graph.game_models()`: the scenario's map and forces, the state, turns and
snapshots, orders, battles, tables with their step logs, dice streams and
rolls, join codes, the audit log, members) and the accounts those rows name,
with their password hashes. Reading it back creates new rows with new primary
keys, so a game can be restored into a database that holds other games; the
few texts that name a primary key (a table's dice stream label `table-5`, a
roll's `table-5:step-3`, a spy report's `army:12`, Orda's data set) are
rewritten to the new keys (`TEXT_KEYS`).

Join codes are signed with the server's SECRET_KEY (larp/tablet/tokens.py).
The file carries the codes and a check value of the exporting server's key
(an HMAC, not the key): on a server with the same key, and where the codes are
free, the printed papers keep working; elsewhere every working code is issued
anew and the import says the old papers are void.
"""
from __future__ import annotations

import datetime
import gzip
import json
import re
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, connection, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from larp.campaign.audit import audit
from larp.campaign.models import Game, Membership
from larp.gamefile import graph
from larp.scenarios import files
from larp.scenarios.export import scenario_of
from larp.scenarios.loader import create_game
from larp.tablet import tokens

FORMAT = "larp-game"
VERSION = 1
USER_FIELDS = ("username", "password", "first_name", "last_name", "email", "is_active", "is_staff",
               "is_superuser", "date_joined", "last_login")
JOIN_CODES_NOTE = ("Join codes (QR) are signed with the server's SECRET_KEY. On a server with the same SECRET_KEY "
                   "the printed codes keep working; on any other the import issues new codes and the old papers "
                   "are void (print them again).")


class GameFileError(Exception):
    """A game file that cannot be read or restored; the message is in the user's language and says what to do."""


@dataclass
class Restored:
    game: Game
    notes: list[str] = field(default_factory=list)
    codes_reissued: int = 0
    reused_users: set[int] = field(default_factory=set)   # accounts that existed here before the import


# --- texts that name a primary key ------------------------------------------------------------------


def _rewrite_prefix(pattern: str, target: str) -> Callable:
    """A rewriter for strings like `table-5` or `table-5:step-3` whose number is a key of `target`."""
    rx = re.compile(pattern)

    def rewrite(value, remap):
        m = rx.match(value or "") if isinstance(value, str) else None
        if not m:
            return value
        new = remap(target, int(m.group("pk")))
        return value if new is None else value[:m.start("pk")] + str(new) + value[m.end("pk"):]
    return rewrite


def _rewrite_stack(value, remap):
    kind, sep, ident = (value or "").partition(":")
    if kind in ("army", "fleet") and ident.isascii() and ident.isdigit():
        new = remap(f"forces.{kind}", int(ident))
        return value if new is None else f"{kind}:{new}"
    return value


def _rewrite_data_set(value, remap):
    if isinstance(value, dict) and isinstance(value.get("data_set"), int):
        new = remap("orda.dataset", value["data_set"])
        return value if new is None else {**value, "data_set": new}
    return value


# (model, field) -> how to rewrite the old keys it names into the new ones.
TEXT_KEYS: dict[tuple[str, str], Callable] = {
    ("dice.stream", "label"): _rewrite_prefix(r"^table-(?P<pk>\d+)$", "tables.table"),
    ("dice.roll", "ref"): _rewrite_prefix(r"^table-(?P<pk>\d+)(:|$)", "tables.table"),
    ("tablet.spyreport", "stack"): _rewrite_stack,
    ("tables.table", "origin"): _rewrite_data_set,
    ("tables.step", "payload"): _rewrite_data_set,
}


# --- export -------------------------------------------------------------------------------------------


def secret_check() -> str:
    """A value that differs between servers with different SECRET_KEYs and reveals nothing of the key."""
    return salted_hmac("larp.gamefile.join-codes", "join codes", algorithm="sha256").hexdigest()[:32]


def _migrations(labels: set[str]) -> dict[str, list[str]]:
    recorder = MigrationRecorder(connection)
    applied = defaultdict(list)
    for app, name in sorted(recorder.applied_migrations()):
        if app in labels:
            applied[app].append(name)
    return dict(applied)


@contextmanager
def _snapshot():
    """One consistent read of the database without blocking the game's writers.

    SQLite: a deferred (read) transaction; in WAL mode it reads a snapshot and takes no lock, where this
    project's IMMEDIATE transactions would hold the write lock for the whole export. PostgreSQL: a repeatable
    read transaction (read committed would let each query see a later state than the one before)."""
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        saved, connection.transaction_mode = getattr(connection, "transaction_mode", None), "DEFERRED"
        try:
            with transaction.atomic():
                yield
        finally:
            connection.transaction_mode = saved
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def export_game(game: Game) -> dict:
    """The whole game as one JSON-ready document (read in one snapshot: a consistent copy)."""
    with _snapshot():
        models = graph.game_models()
        objects, counts, user_ids = [], {}, set()
        for gm in models:
            records = serializers.serialize("python", graph.rows(gm, game))
            counts[gm.label] = len(records)
            for rec in records:
                rec.pop("model", None)
                objects.append({"model": gm.label, "pk": rec["pk"], "fields": rec["fields"]})
                user_ids |= {rec["fields"][n] for n, t in gm.fks.items()
                             if t == graph.user_label() and rec["fields"].get(n) is not None}
        users = [{"pk": u.pk, **{f: getattr(u, f) for f in USER_FIELDS}}
                 for u in get_user_model().objects.filter(pk__in=user_ids).order_by("pk")]
        labels = {gm.model._meta.app_label for gm in models} | {get_user_model()._meta.app_label}
        return {
            "format": FORMAT, "version": VERSION,
            "exported_at": timezone.now(),
            "game": {"id": game.pk, "title": game.title},
            "join_codes": {"secret_check": secret_check(), "note": JOIN_CODES_NOTE},
            "migrations": _migrations(labels),
            "counts": counts,
            "users": users,
            "objects": objects,
        }


def without_accounts(data: dict) -> dict:
    """The document with no account in it (a rehearsal's copy: a player belongs to one game, and the bots get
    seats of their own): the accounts are left out, a row that must name one (a membership, a join code, a
    roster) is left out with every row that must name it, and an optional reference to a left-out row is
    emptied (an order's filer, an audit entry's author)."""
    models = {gm.label: gm for gm in graph.game_models()}
    users = graph.user_label()
    kept = [dict(rec, fields=dict(rec["fields"])) for rec in data["objects"]]
    gone: set[tuple[str, object]] = set()
    changed = True
    while changed:
        changed, rest = False, []
        for rec in kept:
            gm = models.get(rec["model"])
            dropped = False
            for name, target in (gm.fks.items() if gm else ()):
                value = rec["fields"].get(name)
                if value is None or not (target == users or (target, value) in gone):
                    continue
                if name in gm.nullable:
                    rec["fields"][name] = None
                else:
                    dropped = True
            if dropped:
                gone.add((rec["model"], rec["pk"]))
                changed = True
            else:
                rest.append(rec)
        kept = rest
    return {**data, "users": [], "objects": kept,
            "counts": {label: sum(1 for r in kept if r["model"] == label) for label in data.get("counts", {})}}


class _Encoder(DjangoJSONEncoder):
    """Django's encoder, but times keep their microseconds (Django's drops them to milliseconds)."""

    def default(self, o):
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


def dumps(data: dict) -> bytes:
    return json.dumps(data, cls=_Encoder, ensure_ascii=False, indent=1).encode("utf-8")


def write(game: Game, path: str | Path) -> Path:
    """Write the game to `path` (gzipped when the name ends in .gz); the file appears whole or not at all."""
    path = Path(path)
    body = dumps(export_game(game))
    if path.suffix == ".gz":
        body = gzip.compress(body, mtime=0)
    tmp = path.with_name(path.name + ".part")
    tmp.write_bytes(body)
    tmp.replace(path)
    return path


# --- import -------------------------------------------------------------------------------------------


def loads(raw: bytes) -> dict:
    """The document in a game file's bytes (plain or gzipped JSON), or GameFileError saying what is wrong."""
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError):
            raise GameFileError(_("The game file is a damaged gzip archive.")) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise GameFileError(_("This is not a game file: it is not JSON. Choose a file made by «export game»."))\
            from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError(_("This is not a game file (no «format: larp-game»). Choose a file made by «export game»."))
    if data.get("version") != VERSION:
        raise GameFileError(_("The game file has version %(found)s; this server reads version %(known)s.")
                            % {"found": data.get("version"), "known": VERSION})
    for key, kind in (("users", list), ("objects", list), ("game", dict), ("migrations", dict)):
        if not isinstance(data.get(key), kind):
            raise GameFileError(_("The game file is damaged: «%(key)s» is missing.") % {"key": key})
    if not all(isinstance(names, list) and all(isinstance(n, str) for n in names)
               for names in data["migrations"].values()):
        raise GameFileError(_("The game file is damaged: «%(key)s» is missing.") % {"key": "migrations"})
    return data


def read(path: str | Path) -> dict:
    try:
        return loads(Path(path).read_bytes())
    except OSError as exc:
        raise GameFileError(_("Cannot read %(path)s: %(error)s") % {"path": path, "error": exc.strerror}) from None


def _check_migrations(data: dict) -> None:
    known = MigrationRecorder(connection).applied_migrations()
    missing = [f"{app}.{name}" for app, names in sorted(data["migrations"].items()) for name in names
               if (app, name) not in known]
    if missing:
        raise GameFileError(
            _("The game file was written by a newer version of the toolkit (this server lacks %(missing)s). "
              "Update the toolkit on this laptop and run «manage.py migrate», then import again.")
            % {"missing": ", ".join(missing[:5])})


class _Keys:
    """Old primary key -> new, per model."""

    def __init__(self):
        self.map: dict[str, dict[int, int]] = defaultdict(dict)

    def __call__(self, label: str, old):
        return None if old is None else self.map[label].get(old)


def _restore_users(data: dict, keys: _Keys, restored: Restored, *, trusted: bool) -> None:
    """Accounts by username: an existing one is used as it is (its password unchanged), a missing one created."""
    User = get_user_model()
    label = graph.user_label()
    reused = []
    for u in data["users"]:
        if not isinstance(u, dict) or not isinstance(u.get("username"), str) or not u["username"]:
            raise GameFileError(_("The game file is damaged: an account has no name."))
        existing = User.objects.filter(username=u["username"]).first()
        if existing is None:
            fields = {f: u.get(f) for f in USER_FIELDS if f in u}
            fields.pop("username")
            if not trusted:  # an upload by a game's moderator creates no staff or superuser accounts
                fields["is_staff"] = fields["is_superuser"] = False
            obj = next(serializers.deserialize("python", [{"model": label, "pk": None, "fields": {
                "username": u["username"], **{k: v for k, v in fields.items() if v is not None}}}]))
            obj.object.pk = None
            obj.save()
            existing = obj.object
        else:
            reused.append(existing.username)
            restored.reused_users.add(existing.pk)
        keys.map[label][u["pk"]] = existing.pk
    if reused:
        restored.notes.append(
            _("Accounts that already existed here keep their own passwords (%(n)d): %(names)s.")
            % {"n": len(reused), "names": ", ".join(reused[:10]) + ("…" if len(reused) > 10 else "")})


def _restore_rows(data: dict, keys: _Keys, title: str) -> dict[str, list[tuple[int, dict]]]:
    """Insert every row with new keys; returns, per model, (new pk, the file's fields) for the after-pass."""
    models = {gm.label: gm for gm in graph.game_models()}
    order = {label: i for i, label in enumerate(models)}
    by_model: dict[str, list[dict]] = defaultdict(list)
    for rec in data["objects"]:
        if not isinstance(rec, dict) or rec.get("model") not in models or not isinstance(rec.get("fields"), dict):
            raise GameFileError(_("The game file holds rows this server does not know (%(model)s). "
                                  "Update the toolkit on this laptop and import again.")
                                % {"model": rec.get("model") if isinstance(rec, dict) else "?"})
        by_model[rec["model"]].append(rec)
    if len(by_model.get("campaign.game", [])) != 1:
        raise GameFileError(_("The game file is damaged: it must hold exactly one game."))

    inserted: dict[str, list[tuple[int, dict]]] = defaultdict(list)
    deferred: list[tuple[str, int, str, str, int]] = []   # model, new pk, field, target, old target pk
    for label in sorted(by_model, key=order.__getitem__):
        gm = models[label]
        for rec in sorted(by_model[label], key=lambda r: r["pk"]):
            fields = dict(rec["fields"])
            if label == "campaign.game":
                # A restored game is a game of its own: a rehearsal copy's mark names a game of another database.
                fields.update(title=title, rehearsal_of=None, rehearsal={})
            later = []
            for name, target in gm.fks.items():
                old = fields.get(name)
                if old is None:
                    continue
                new = keys(target, old)
                if new is None and name in gm.nullable and target != graph.user_label():
                    later.append((name, target, old))   # set once its target exists
                    fields[name] = None
                elif new is None:
                    raise GameFileError(_("The game file is damaged: %(model)s %(pk)s names a missing %(target)s.")
                                        % {"model": label, "pk": rec["pk"], "target": target})
                else:
                    fields[name] = new
            obj = next(serializers.deserialize("python", [{"model": label, "pk": None, "fields": fields}]))
            obj.object.pk = None
            obj.save()
            keys.map[label][rec["pk"]] = obj.object.pk
            inserted[label].append((obj.object.pk, rec["fields"]))
            deferred += [(label, obj.object.pk, *d) for d in later]
    updates: dict[tuple[str, int], dict] = defaultdict(dict)
    for label, pk, name, target, old in deferred:
        new = keys(target, old)
        if new is None:
            raise GameFileError(_("The game file is damaged: %(model)s names a missing %(target)s.")
                                % {"model": label, "target": target})
        updates[(label, pk)][f"{name}_id"] = new
    for (label, name), rewrite in TEXT_KEYS.items():
        for pk, fields in inserted.get(label, []):
            value = fields.get(name)
            new = rewrite(value, keys)
            if new != value:
                updates[(label, pk)][name] = new
    for (label, pk), values in updates.items():
        models[label].model._base_manager.filter(pk=pk).update(**values)
    return inserted


def _restore_join_codes(game: Game, data: dict, restored: Restored, *, trusted: bool) -> None:
    """Keep the printed codes where they still verify; else issue every working code anew.

    A code signs its account in: one for an account that is not a player of the game, or (from an upload)
    for an account that existed here before, is revoked, so a file cannot hand anyone a way into an account.
    """
    from larp.tablet.middleware import forget

    JoinToken = apps.get_model("tablet", "JoinToken")
    same_key = (data.get("join_codes") or {}).get("secret_check") == secret_check()
    now = timezone.now().replace(microsecond=0)
    players = set(Membership.objects.filter(game=game, role=Membership.PLAYER).values_list("user_id", flat=True))
    allowed = players if trusted else players - restored.reused_users
    revoked = JoinToken.objects.filter(game=game, revoked_at__isnull=True).exclude(user_id__in=allowed)
    forget(list(revoked.values_list("pk", flat=True)))  # their tablets are signed out at their next request
    revoked.update(revoked_at=now)
    reissued = 0
    for token in JoinToken.objects.filter(game=game):
        if same_key and not token.key.startswith("moved-"):
            continue
        token.key = tokens.new_key()
        if token.is_active(now):
            token.created_at, token.expires_at, token.uses, token.last_used_at = now, tokens.expiry(now), 0, None
            reissued += 1
        token.save(update_fields=["key", "created_at", "expires_at", "uses", "last_used_at"])
    restored.codes_reissued = reissued
    if reissued:
        restored.notes.append(
            _("Join codes issued anew: %(n)d. The old printed codes are void: print the codes again.")
            % {"n": reissued})
    elif same_key and JoinToken.objects.filter(game=game).exists():
        restored.notes.append(_("The printed join codes keep working (this server has the same SECRET_KEY)."))


def restore(data: dict, *, title: str | None = None, by=None, trusted: bool = True) -> Restored:
    """A new game from a game file's document, in one transaction (all of it or nothing).

    `trusted` (the command line) keeps the accounts' staff flags; an upload from the console does not.
    """
    _check_migrations(data)
    title = (title or data["game"].get("title") or "").strip()
    if not title:
        raise GameFileError(_("The game needs a title."))
    if Game.objects.filter(title=title).exists():
        raise GameFileError(_("A game titled «%(title)s» already exists here: choose another title "
                              "(--title on the command line) or delete that game first.") % {"title": title})
    JoinToken = apps.get_model("tablet", "JoinToken")
    keys_in_use = set(JoinToken.objects.filter(
        key__in=[r["fields"].get("key") for r in data["objects"]
                 if isinstance(r, dict) and r.get("model") == "tablet.jointoken" and isinstance(r.get("fields"), dict)]
    ).values_list("key", flat=True))
    for r in data["objects"]:
        if isinstance(r, dict) and r.get("model") == "tablet.jointoken" and r["fields"].get("key") in keys_in_use:
            r["fields"] = {**r["fields"], "key": "moved-" + tokens.new_key()}  # taken here: a new key below
    try:
        with transaction.atomic():
            keys = _Keys()
            restored = Restored(game=None)  # type: ignore[arg-type]
            _restore_users(data, keys, restored, trusted=trusted)
            _restore_rows(data, keys, title)
            game = Game.objects.get(pk=next(iter(keys.map["campaign.game"].values())))
            restored.game = game
            _restore_join_codes(game, data, restored, trusted=trusted)
            audit(game, by, "game_imported", {"from_game": data["game"].get("id"), "title": data["game"].get("title"),
                                             "exported_at": data.get("exported_at"),
                                             "codes_reissued": restored.codes_reissued})
    except IntegrityError as exc:
        raise GameFileError(
            _("The game could not be restored here: %(error)s. A player can be in one game only — if the "
              "original game is in this database, delete it first or import into another one.")
            % {"error": str(exc).splitlines()[0]}) from None
    except (ValueError, TypeError, KeyError, AttributeError, ValidationError,
            serializers.base.DeserializationError) as exc:
        raise GameFileError(_("The game file is damaged: %(error)s") % {"error": exc}) from None
    return restored


# --- from the console ---------------------------------------------------------------------------------


def _moderate(by, game: Game) -> None:
    """The moderator who brought the game in may run it (their account's role elsewhere is untouched)."""
    if by is not None and not Membership.objects.filter(user=by, game=game).exists():
        Membership.objects.create(user=by, game=game, role=Membership.MODERATOR)


def new_game_from_scenario(by, raw: bytes, filename: str, title: str) -> Game:
    """A new game from an uploaded scenario file (.yaml or .zip); ScenarioError lists every problem."""
    with transaction.atomic():
        if raw[:4] == b"PK\x03\x04":
            data, picture = files.parse_zip(raw, filename)
        else:
            data, picture = files.parse_yaml(raw, filename), None
        game = create_game(data, title=title, picture=picture)
        _moderate(by, game)
        audit(game, by, "game_created_from_file", {"file": filename[:200]})
    return game


def restore_upload(by, raw: bytes, title: str | None = None) -> Restored:
    """A game file uploaded by a moderator: restored as a new game that the moderator may run.

    No staff or superuser account is created from an upload (`trusted=False`)."""
    with transaction.atomic():
        restored = restore(loads(raw), title=title or None, by=by, trusted=False)
        _moderate(by, restored.game)
    return restored


def scenario_download(game: Game) -> tuple[str, bytes]:
    """The game's world as a scenario file: (file name, bytes)."""
    data = scenario_of(game)
    return f"{data['scenario']['id']}.yaml", files.dump_yaml(data).encode("utf-8")


def game_download(game: Game) -> tuple[str, bytes]:
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    return f"game-{game.pk}-{stamp}.json.gz", gzip.compress(dumps(export_game(game)), mtime=0)
