"""Offered only when open, both ways, for a system's declared acts (larp.tables.acts): on a table at some stage,
for each seat, every form the page draws for an act is one `open_when` says that seat may press now; and every act
it says is not open is refused when posted anyway (a crafted POST: 4xx, nothing recorded).

    seen = offered_both_ways(ACTS, table, seats, page_url, act_url, data)   # the act names the pages offered
"""
from __future__ import annotations

import re

from django.core.exceptions import PermissionDenied
from larp.tables.models import Press, Step

FORM = re.compile(r'<form\b[^>]*\baction="(?P<action>[^"]*)"[^>]*>(?P<body>.*?)</form>', re.S)


def offered_both_ways(acts, table, seats, page_url: str, act_url, data: dict, client_for,
                      posted: set | None = None) -> set[str]:
    """`seats`: [(user, moderator?, side key or None)]; `act_url(name)`; `data`: a plausible form per act name.
    Returns the names of the acts some page offered. Every closed act's predicate gives its refusal; it is posted
    anyway once per seat (`posted` remembers those already tried over a walk through the stages of a table)."""
    posted = set() if posted is None else posted
    offered: set[str] = set()
    names = {act_url(a.name): a.name for a in acts.acts}
    for user, moderator, side in seats:
        client = client_for(user)
        table.refresh_from_db()
        state = acts.state(table)
        page = client.get(page_url)
        assert page.status_code == 200
        drawn = set()
        for m in FORM.finditer(page.content.decode()):
            name = names.get(m.group("action"))
            if name is None:
                continue
            act = acts.by_name[name]
            found = re.search(rf'<input type="hidden" name="{act.side_field}" value="(?P<side>[^"]*)"', m.group("body"))
            panel = found.group("side") if found and act.sided else (side if not moderator else None)
            if moderator and act.sided and panel is None:          # the form picks the side: open for one of them
                open_now = acts.open_any(state, table, moderator, None)
            else:
                open_now = acts.open_for(state, table, moderator, panel)
            assert name in open_now, f"{name} offered to {'the moderator' if moderator else side} for {panel} " \
                                     f"but not open: {act.open_when(state, _chair(table, moderator, panel))}"
            drawn.add((name, panel))
            offered.add(name)
        for act in acts.acts:
            panels = ([s.key for s in table.sides.all()] if moderator else [side]) if act.sided else \
                [None if moderator else side]
            for panel in panels:
                if act.name in acts.open_for(state, table, moderator, panel):
                    continue
                if (act.who == "moderator" and not moderator) or (act.who == "side" and moderator):
                    continue                                            # not this seat's act at all: 403 elsewhere
                if table.is_open or act.closed_too:
                    try:
                        verdict = act.open_when(state, _chair(table, moderator, panel))
                    except PermissionDenied:                    # not this seat's act now: the door says 403
                        verdict = "403"
                    assert isinstance(verdict, str) and verdict, (act.name, panel, verdict)
                if (act.name, user.pk, panel) in posted:
                    continue
                posted.add((act.name, user.pk, panel))
                before = (Step.objects.filter(table=table).count(), Press.objects.filter(table=table).count())
                crafted = {**data.get(act.name, {}), **({act.side_field: panel} if panel and act.sided else {}),
                          "act_key": f"crafted-{act.name}-{panel}"}
                r = client.post(act_url(act.name), crafted)
                assert 400 <= r.status_code < 500, (act.name, panel, r.status_code)
                assert (Step.objects.filter(table=table).count(),
                        Press.objects.filter(table=table).count()) == before, (act.name, panel)
    return offered


def _chair(table, moderator, side):
    from larp.tables.acts import Chair
    return Chair(table, moderator, side)
