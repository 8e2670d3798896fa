"""Jade Rose battle engine: set-up validation, the reference battle, the fast simulator, reports.

Public API: BattleSpecError, parse_spec, build_battle, simulate, fight_once, resolve_battle,
render_report (see the docstrings; `resolve_battle` explains how the turn builds a Battle).
"""
from engine.jade_rose.battle.deployment import BattleSpecError, build_battle
from engine.jade_rose.battle.model import Battle, Manoeuvre, Position, SideSetup, SquadSetup
from engine.jade_rose.battle.reference import fight_once
from engine.jade_rose.battle.result import BattleResult
from engine.jade_rose.battle.spec import parse_spec

__all__ = ["Battle", "BattleResult", "BattleSpecError", "Manoeuvre", "Position", "SideSetup", "SquadSetup",
           "build_battle", "fight_once", "parse_spec"]
