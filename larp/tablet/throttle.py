"""Login throttling and join codes: a tablet signing in by its join code proves nothing about any password, so
it must not wipe the failed-password count (django-axes resets it on every sign-in; AXES_RESET_ON_SUCCESS)."""
from axes.handlers.database import AxesDatabaseHandler

SIGNED_IN_BY_JOIN_CODE = "larp_signed_in_by_join_code"


def mark_join_code_sign_in(request) -> None:
    setattr(request, SIGNED_IN_BY_JOIN_CODE, True)


class ThrottleHandler(AxesDatabaseHandler):
    """Axes' database handler, except that a join-code sign-in resets no failed attempts."""

    def reset_user_attempts(self, request, credentials=None) -> int:
        if getattr(request, SIGNED_IN_BY_JOIN_CODE, False):
            return 0
        return super().reset_user_attempts(request, credentials)
