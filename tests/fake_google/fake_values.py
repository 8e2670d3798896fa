"""Cell values of the fake: values-API input as userEnteredValue, the arithmetic a formula may
hold, and a cell rendered for each valueRenderOption (numbers formatted as Sheets shows them)."""
from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from typing import Any

from tests.fake_google.fake_errors import invalid

_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def user_entered(value: Any, option: str) -> dict | None:
    """A value from the values API as a userEnteredValue; None means "leave the cell alone"."""
    if value is None:
        return None
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, (int, float)):
        return {"numberValue": value}
    if not isinstance(value, str):
        raise invalid(f"Invalid values[][]: {value!r}")
    if value == "":
        return {}
    if option == "RAW":
        return {"stringValue": value}
    if value.startswith("'"):
        return {"stringValue": value[1:]}
    if value.startswith("="):
        return {"formulaValue": value}
    if _NUMBER.fullmatch(value.strip()):
        number = float(value)
        return {"numberValue": int(number) if number.is_integer() and "." not in value else number}
    if value.upper() in ("TRUE", "FALSE"):
        return {"boolValue": value.upper() == "TRUE"}
    return {"stringValue": value}


_BINOPS: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def _arith(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _arith(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _arith(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        return _BINOPS[type(node.op)](_arith(node.left), _arith(node.right))
    raise ValueError("not arithmetic")


def effective(uev: dict | None) -> dict | None:
    """What a cell evaluates to: formulas of plain arithmetic are computed, others are #NAME?."""
    if not uev:
        return None
    if "formulaValue" in uev:
        try:
            value = _arith(ast.parse(uev["formulaValue"][1:].strip(), mode="eval"))
            return {"numberValue": value}
        except (ValueError, SyntaxError, ZeroDivisionError, TypeError):
            return {"errorValue": {"type": "NAME", "message": "Unknown function or range."}}
    return dict(uev)


def number_json(value: float) -> int | float:
    return int(value) if isinstance(value, float) and value.is_integer() and abs(value) < 1e15 else value


def format_number(value: float) -> str:
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return format(value, ".10g")


def render(cell: dict | None, option: str) -> Any:
    """A cell as the values API returns it for valueRenderOption `option`."""
    uev = (cell or {}).get("userEnteredValue")
    if not uev:
        return ""
    if option == "FORMULA" and "formulaValue" in uev:
        return uev["formulaValue"]
    ev = effective(uev) or {}
    if "stringValue" in ev:
        return ev["stringValue"]
    if "numberValue" in ev:
        return number_json(ev["numberValue"]) if option != "FORMATTED_VALUE" else format_number(ev["numberValue"])
    if "boolValue" in ev:
        return ev["boolValue"] if option != "FORMATTED_VALUE" else ("TRUE" if ev["boolValue"] else "FALSE")
    if "errorValue" in ev:
        return "#NAME?" if ev["errorValue"].get("type") == "NAME" else "#ERROR!"
    return ""
