"""The `adjudicator` capability of Titania: one situation file (`titania.adjudicate.v1`, SCHEMA.md, or `.v2`,
SCHEMA_V2.md) in, the JSON outcome, the problems of a refused file and the Russian report out."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.ruleset import Adjudication
from engine.titania.adjudicate import adjudicate
from engine.titania.report import render
from engine.titania.situation import SCHEMA_ID, SCHEMAS

SCHEMA = SCHEMA_ID


class TitaniaSituations:
    """`forumwar adjudicate FILE.json` for Titania (conformance cases, a GM's disputes)."""

    schema = SCHEMA
    schemas: tuple[str, ...] = SCHEMAS  # both ids are accepted; the output echoes the one given

    def adjudicate(self, situation: Mapping[str, Any], seed: int | str) -> Adjudication:
        answer = adjudicate(situation, seed)
        output = None if answer.output is None else dict(answer.output)
        return Adjudication(output, tuple(answer.problems), render(answer, seed))
