"""The `adjudicator` capability of Titania: one situation file (`titania.adjudicate.v1`, SCHEMA.md, or `.v2`,
SCHEMA_V2.md) in, the JSON outcome, the problems of a refused file and the Russian report out."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.ruleset import Adjudication, BookRows, SituationGame
from engine.titania import through_books
from engine.titania.adjudicate import adjudicate
from engine.titania.report import render
from engine.titania.situation import SCHEMA_ID, SCHEMAS
from engine.titania.situation_game import fixed_notes, game_from_situation
from engine.titania.state_types import plain, titania_state

SCHEMA = SCHEMA_ID


class TitaniaSituations:
    """`forumwar adjudicate FILE.json` for Titania (conformance cases, a GM's disputes)."""

    schema = SCHEMA
    schemas: tuple[str, ...] = SCHEMAS  # both ids are accepted; the output echoes the one given

    def adjudicate(self, situation: Mapping[str, Any], seed: int | str) -> Adjudication:
        answer = adjudicate(situation, seed)
        output = None if answer.output is None else dict(answer.output)
        return Adjudication(output, tuple(answer.problems), render(answer, seed))

    def game(self, situation: Mapping[str, Any], seed: int | str, fix_turn: bool = False) -> SituationGame:
        state, problems = game_from_situation(situation, seed, fix_turn)
        return SituationGame(plain(state) if state is not None else None, tuple(problems), fixed_notes(situation))

    def rows(self, situation: Mapping[str, Any], state: Mapping[str, Any]) -> BookRows:
        plan = through_books.plan(situation, titania_state(state))
        return BookRows(plan.books, plan.data, tuple(plan.problems), plan)

    def answer(self, situation: Mapping[str, Any], rows: BookRows, before: Mapping[str, Any],
               after: Mapping[str, Any], checked: Mapping[str, Mapping[tuple[str, int], bool]]
               ) -> tuple[dict[str, Any], tuple[str, ...]]:
        plan = rows.plan
        assert isinstance(plan, through_books.Plan)
        return (through_books.answer(situation, plan, titania_state(before), titania_state(after)),
                tuple(through_books.mismatches(plan, checked, titania_state(after))))
