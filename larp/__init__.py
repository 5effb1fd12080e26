"""The moderator toolkit for the military module of live historical role-play games.

The Celery app is bound when Django starts (larp.campaign.apps), not here, so
that importing the pure rules engine (larp.engine) loads no Django at all.
"""
