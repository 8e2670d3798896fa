"""Google field masks ("a,b(c,d),e.f", "gridProperties/rowCount"): select and update by mask."""
from __future__ import annotations

import copy
from typing import Any

Tree = dict[str, "Tree | None"]


class MaskError(ValueError):
    """A field mask Google would refuse."""


def parse(mask: str) -> Tree | None:
    """A mask as a tree of names; None stands for "everything" ("*" or an empty mask)."""
    mask = mask.replace(" ", "")
    if mask in ("", "*"):
        return None
    tree, pos = _parse_list(mask, 0)
    if pos != len(mask):
        raise MaskError(mask)
    return tree


def _parse_list(text: str, pos: int) -> tuple[Tree, int]:
    tree: Tree = {}
    while True:
        path, pos = _parse_path(text, pos)
        _merge(tree, path)
        if pos < len(text) and text[pos] == ",":
            pos += 1
            continue
        return tree, pos


def _parse_path(text: str, pos: int) -> tuple[Tree, int]:
    start = pos
    while pos < len(text) and text[pos] not in ",()./":
        pos += 1
    name = text[start:pos]
    if not name:
        raise MaskError(text)
    if pos < len(text) and text[pos] in "./":
        sub, pos = _parse_path(text, pos + 1)
        return {name: sub}, pos
    if pos < len(text) and text[pos] == "(":
        sub, pos = _parse_list(text, pos + 1)
        if pos >= len(text) or text[pos] != ")":
            raise MaskError(text)
        return {name: sub}, pos + 1
    return {name: None}, pos


def _merge(tree: Tree, path: Tree) -> None:
    for name, sub in path.items():
        if name not in tree:
            tree[name] = sub
        elif tree[name] is not None:
            if sub is None:
                tree[name] = None
            else:
                _merge(tree[name], sub)  # type: ignore[arg-type]


def select(obj: Any, tree: Tree | None) -> Any:
    """The part of a response that a `fields` mask asks for."""
    if tree is None:
        return obj
    if isinstance(obj, list):
        return [select(item, tree) for item in obj]
    if not isinstance(obj, dict):
        return obj
    out = {}
    for name, sub in tree.items():
        if name == "*":
            return obj
        if name in obj:
            out[name] = select(obj[name], sub)
    return out


def update(target: dict, source: dict, tree: Tree | None) -> None:
    """Copy the masked fields of `source` onto `target`; a masked field absent in source is cleared."""
    if tree is None:
        target.clear()
        target.update(copy.deepcopy(source))
        return
    for name, sub in tree.items():
        if name == "*":
            update(target, source, None)
            return
        if name not in source:
            target.pop(name, None)
        elif sub is None or not isinstance(source[name], dict):
            target[name] = copy.deepcopy(source[name])
        else:
            child = target.setdefault(name, {})
            if not isinstance(child, dict):
                child = target[name] = {}
            update(child, source[name], sub)
            if not child:
                target.pop(name)


def merged(target: dict, source: dict, tree: Tree | None) -> dict:
    """What `update` would make of a copy of `target`, without changing `target` or copying `source`:
    the dicts along the masked paths are new, everything else (the rest of `target`, the values taken
    from `source`) is shared. For objects that are replaced and never changed in place (the fake's cells)."""
    if tree is None:
        return dict(source)
    out = dict(target)
    for name, sub in tree.items():
        if name == "*":
            return dict(source)
        if name not in source:
            out.pop(name, None)
        elif sub is None or not isinstance(source[name], dict):
            out[name] = source[name]
        else:
            child = out.get(name)
            child = merged(child if isinstance(child, dict) else {}, source[name], sub)
            if child:
                out[name] = child
            else:
                out.pop(name, None)
    return out
