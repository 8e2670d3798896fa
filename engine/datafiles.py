"""Rule-set data files: TOML read from a package, checked so that every problem is reported at once.

A GM who edits a number in a data file gets one list of every mistake (in Russian, each naming the
file path of the value, e.g. `units.empire_knight.attack`), never the first one only. A rule set's
validator collects into a `Problems` and raises `DataError` when it is not empty; the values it
builds from are frozen (`freeze`) so no turn can change them.
"""
from __future__ import annotations

import importlib.resources
import tomllib
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, TypeGuard


class DataError(ValueError):
    """The data files are inconsistent; `.problems` lists every problem found."""

    def __init__(self, problems: Iterable[str], what: str = "Данные правил"):
        self.problems = list(problems)
        super().__init__(f"{what}: ошибок — {len(self.problems)}:\n- " + "\n- ".join(self.problems))


def is_int(value: object) -> TypeGuard[int]:
    """An integer that is not a bool (TOML's `true` is not a number)."""
    return isinstance(value, int) and not isinstance(value, bool)


class Problems:
    """Collects the problems of a data set; the checks return whether the value passed."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def __bool__(self) -> bool:
        return bool(self.items)

    def add(self, where: str, message: str) -> None:
        self.items.append(f"{where}: {message}")

    def raise_if_any(self, what: str = "Данные правил") -> None:
        if self.items:
            raise DataError(self.items, what)

    def table(self, where: str, value: Any) -> bool:
        # bool, not TypeGuard: a TypeGuard would narrow `where`, the first argument
        if isinstance(value, Mapping):
            return True
        self.add(where, f"ожидается таблица, а не {value!r}")
        return False

    def fields(self, where: str, record: Any, required: Iterable[str], optional: Iterable[str] = ()) -> bool:
        """A table with every required field and no unknown one."""
        if not self.table(where, record):
            return False
        required = tuple(required)
        for name in required:
            if name not in record:
                self.add(where, f"нет поля {name!r}")
        for name in sorted(set(record) - set(required) - set(optional)):
            self.add(where, f"неизвестное поле {name!r}")
        return True

    def integer(self, where: str, value: Any, minimum: int | None = None, maximum: int | None = None) -> bool:
        if not is_int(value):
            self.add(where, f"ожидается целое число, а не {value!r}")
            return False
        if minimum is not None and value < minimum:
            self.add(where, "отрицательное число " + str(value) if minimum == 0
                     else f"должно быть не меньше {minimum}, а не {value}")
            return False
        if maximum is not None and value > maximum:
            self.add(where, f"должно быть не больше {maximum}, а не {value}")
            return False
        return True

    def number(self, where: str, value: Any, minimum: float | None = None, maximum: float | None = None) -> bool:
        """An integer or a decimal fraction within the bounds."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.add(where, f"ожидается число, а не {value!r}")
            return False
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            self.add(where, f"должно быть от {minimum} до {maximum}, а не {value}")
            return False
        return True

    def boolean(self, where: str, value: Any) -> bool:
        if isinstance(value, bool):
            return True
        self.add(where, f"ожидается true или false, а не {value!r}")
        return False

    def text(self, where: str, value: Any) -> bool:
        if isinstance(value, str) and value.strip():
            return True
        self.add(where, f"ожидается непустой текст, а не {value!r}")
        return False

    def choice(self, where: str, value: Any, allowed: Iterable[str]) -> bool:
        allowed = tuple(allowed)
        if value in allowed:
            return True
        self.add(where, f"{value!r} не подходит; допустимо: {', '.join(repr(a) for a in allowed)}")
        return False


def read_toml(package: str, *path: str) -> dict[str, Any] | None:
    """A TOML file shipped inside `package` (None when it is absent); raises tomllib.TOMLDecodeError."""
    resource = importlib.resources.files(package).joinpath(*path)
    if not resource.is_file():
        return None
    return tomllib.loads(resource.read_text(encoding="utf-8"))


def read_toml_files(package: str, folder: str, names: Iterable[str],
                    optional: Iterable[str] = ()) -> dict[str, dict[str, Any]]:
    """Every `folder/NAME.toml` of the package by name; raises DataError listing each missing or
    unreadable required file (optional ones may be absent and then are not in the result)."""
    optional = tuple(optional)
    out: dict[str, dict[str, Any]] = {}
    problems = Problems()
    for name in (*names, *optional):
        try:
            doc = read_toml(package, folder, f"{name}.toml")
        except tomllib.TOMLDecodeError as exc:
            problems.add(f"{name}.toml", f"не читается как TOML: {exc}")
            continue
        if doc is not None:
            out[name] = doc
        elif name not in optional:
            problems.add(f"{name}.toml", "файла нет")
    problems.raise_if_any()
    return out


def freeze(value: Any) -> Any:
    """A read-only copy: mappings become MappingProxyType, lists tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A plain JSON-able copy of a frozen value (mappings to dicts, tuples to lists)."""
    if isinstance(value, Mapping):
        return {str(k): thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value
