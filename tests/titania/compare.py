"""The README's subset comparison for Titania adjudication cases (shared/conformance/titania/README.md)."""
from __future__ import annotations

import json
from typing import Any


def _army_key(a: Any) -> tuple[Any, Any, Any]:
    return (a.get("faction"), a.get("province"), a.get("strength"))


def mismatches(exp: Any, act: Any, path: str = "$") -> list[str]:
    """Where `act` fails the subset `exp` (empty list: it satisfies it)."""
    if isinstance(exp, dict):
        if not isinstance(act, dict):
            return [f"{path}: expected an object, got {json.dumps(act, ensure_ascii=False)[:80]}"]
        out: list[str] = []
        for key, want in exp.items():
            if key not in act:
                out.append(f"{path}.{key}: missing")
            elif key == "armies" and isinstance(want, list):  # the complete list, order-free
                if sorted(map(_army_key, want), key=str) != sorted(map(_army_key, act[key] or []), key=str):
                    out.append(f"{path}.armies: expected {sorted(map(_army_key, want), key=str)}, "
                               f"got {sorted(map(_army_key, act[key] or []), key=str)}")
            elif key == "orders" and isinstance(want, list) and all(isinstance(x, dict) and "index" in x
                                                                   for x in want):
                by_index = {o.get("index"): o for o in act[key] if isinstance(o, dict)}
                for x in want:
                    if x["index"] not in by_index:
                        out.append(f"{path}.orders[index={x['index']}]: missing")
                    else:
                        out += mismatches(x, by_index[x["index"]], f"{path}.orders[index={x['index']}]")
            else:
                out += mismatches(want, act[key], f"{path}.{key}")
        return out
    if isinstance(exp, list):
        if not isinstance(act, list) or len(exp) != len(act):
            return [f"{path}: expected {len(exp)} items, got {json.dumps(act, ensure_ascii=False)[:120]}"]
        return [m for i, (e, a) in enumerate(zip(exp, act, strict=True)) for m in mismatches(e, a, f"{path}[{i}]")]
    if isinstance(exp, bool) or isinstance(act, bool):
        return [] if exp is act else [f"{path}: expected {exp!r}, got {act!r}"]
    return [] if exp == act else [f"{path}: expected {exp!r}, got {act!r}"]
