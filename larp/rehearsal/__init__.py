"""A rehearsal of a game night: bots play a game through the real pages and check invariants (issue 37).

`manage.py rehearse` starts (or is pointed at) a live server and a Celery worker, signs a bot in per seat
(join codes for tablets, a password for the moderator), lets each choose only among what its page offers, and
after every act runs the named checks of `checks.py`. See docs/rehearsal.md.
"""
