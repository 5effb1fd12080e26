from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TabletConfig(AppConfig):
    name = "larp.tablet"
    verbose_name = _("Players' tablets")

    def ready(self):
        from django.db.models.signals import post_delete, post_save

        from larp.tablet.middleware import forget
        from larp.tablet.models import JoinToken

        # A code saved or deleted is looked up anew by its tablet's next request (update()s call forget themselves).
        for signal in (post_save, post_delete):
            signal.connect(lambda sender, instance, **kw: forget([instance.pk]), sender=JoinToken, weak=False,
                           dispatch_uid=f"join-code-forget-{signal is post_save}")

        from django.contrib.auth.signals import user_logged_out

        from larp.tablet import board_pass

        from django.contrib.auth import get_user_model

        from larp.campaign.models import Membership

        # A pass to a game's boards holds while the game's memberships and the user's row are as they were.
        for signal in (post_save, post_delete):
            signal.connect(lambda sender, instance, **kw: board_pass.members_changed(instance.game_id),
                           sender=Membership, weak=False, dispatch_uid=f"board-pass-members-{signal is post_save}")
            signal.connect(lambda sender, instance, **kw: board_pass.user_changed(instance.pk),
                           sender=get_user_model(), weak=False, dispatch_uid=f"board-pass-user-{signal is post_save}")
        # A session signed out keeps no pass to its boards (larp.tablet.board_pass).
        user_logged_out.connect(
            lambda sender, request=None, **kw: board_pass.revoke_session(
                getattr(getattr(request, "session", None), "session_key", None)),
            weak=False, dispatch_uid="board-pass-logout")
        from larp.tablet import warm
        from larp.turns.models import Phase

        # A new phase: every faction's board drawn once for it right after the commit (larp.tablet.warm).
        post_save.connect(warm.after_phase_started, sender=Phase, weak=False, dispatch_uid="boards-at-phase-change")
