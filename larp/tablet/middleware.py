"""A tablet signed in by a join code stays signed in only while that code works.

Revoking a code (a lost or stolen tablet) or issuing a new one signs that
tablet out at its next request. The check is lazy: it runs only when a view
looks at request.user, so the clock that tablets poll every second costs
nothing more.
"""
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

SESSION_KEY = "larp_join_token"


def _checked(request, user):
    token_id = request.session.get(SESSION_KEY)
    if token_id is None or not user.is_authenticated:
        return user
    from larp.tablet.models import JoinToken

    if JoinToken.objects.filter(pk=token_id, user_id=user.pk, revoked_at__isnull=True,
                                expires_at__gt=timezone.now()).exists():
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
