"""A tablet signed in by a join code stays signed in only while that code works.

Revoking a code (a lost or stolen tablet) or issuing a new one signs that
tablet out at its next request. The check is lazy: it runs only when a view
looks at request.user, so the clock that tablets poll every second costs
nothing more; and a working code is kept in the cache for CHECK_SECONDS, so a
phase change's sixty board requests do not each look it up (every place that
revokes a code calls `forget`).
"""
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

SESSION_KEY = "larp_join_token"


CHECK_SECONDS = 60  # a working code is looked up again after this; revoking one forgets it at once (`forget`)


def _key(token_id) -> str:
    return f"jointoken:v1:{token_id}"


def forget(token_ids) -> None:
    """The codes were revoked: the next request of their tablets looks them up (now and after commit)."""
    from django.core.cache import cache
    from django.db import transaction

    keys = [_key(t) for t in token_ids]
    if not keys:
        return

    def drop():
        try:
            cache.delete_many(keys)
        except Exception:  # noqa: BLE001 - CHECK_SECONDS bounds it
            pass

    drop()
    transaction.on_commit(drop)


_UNREAD = object()


def _works(token_id, user_id, known=_UNREAD) -> bool:
    """Whether the join code still works, from the cache when it was looked up within CHECK_SECONDS. `known`: the
    cache's value under `_key(token_id)` when the caller read it already (with others, in one round trip)."""
    from django.core.cache import cache

    from larp.tablet.models import JoinToken

    now = timezone.now()
    if known is _UNREAD:
        try:
            known = cache.get(_key(token_id))
        except Exception:  # noqa: BLE001
            known = None
    if known is None:
        row = JoinToken.objects.filter(pk=token_id, revoked_at__isnull=True).values_list("user_id", "expires_at")
        known = tuple(row.first() or (None, now))
        try:
            cache.set(_key(token_id), known, CHECK_SECONDS)
        except Exception:  # noqa: BLE001
            pass
    return known[0] == user_id and known[1] > now


def _checked(request, user):
    token_id = request.session.get(SESSION_KEY)
    if token_id is None or not user.is_authenticated:
        return user
    if _works(token_id, user.pk):
        return user
    request.session.flush()  # what logout() does, without its signal (request.user is being computed)
    return AnonymousUser()


class JoinCodeSessionMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = request.user
        request.user = SimpleLazyObject(lambda: _checked(request, user))
        return self.get_response(request)
