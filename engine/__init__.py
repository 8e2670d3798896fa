"""Pure rules engine for forumwar: no I/O, no clock, no global randomness."""
from engine.registry import find_ruleset, register, ruleset_names

__all__ = ["find_ruleset", "ruleset_names", "register"]
