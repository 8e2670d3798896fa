"""Jade Rose war: armies and their orders, garrisons, battles in the turn, captures (rule book L38-59).

The turn orchestrator calls, in order: `parse_war_tabs` (orders stage rows -> plan), `form_battles`
(after the economy; writes `state["battles"]`), `needs_planning`, `parse_manoeuvres` (planning stage),
`resolve_battles` (returns the events below; `resolve_battles_with_verdicts` also the rows' verdicts); the
views build the books' tables.

Events returned by `resolve_battles`:
    {"kind": "battle", "id" (fight id "<battle id>/<n>"), "city", "attacker", "defender", "winner",
     "deaths": {fid: {unit: n}}, "army_deaths": {fid: {unit: n}}, "army_size": {fid: n}}
    {"kind": "capture", "city", "attacker", "previous_owner", "choice", "large", "level_before",
     "era_max_level", "base_income", "buildings_lost", "left" (only a raze whose ruins the attacker declined)}
    {"kind": "failed_attack", "city", "attacker", "defender"}
    {"kind": "eliminated", "faction"}
"""
from engine.jade_rose.war.armies import ORDER_TABS, parse_war_tabs
from engine.jade_rose.war.battles import form_battles, needs_planning
from engine.jade_rose.war.manoeuvres import parse_manoeuvres
from engine.jade_rose.war.resolution import resolve_battles, resolve_battles_with_verdicts
from engine.jade_rose.war.views import gm_views, public_views, views, vocabularies

__all__ = ["ORDER_TABS", "parse_war_tabs", "form_battles", "needs_planning", "parse_manoeuvres",
           "resolve_battles", "resolve_battles_with_verdicts", "vocabularies", "views", "public_views", "gm_views"]
