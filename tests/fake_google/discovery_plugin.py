"""A pytest plugin collecting every request the bridge sends to a FakeGoogle during a test run,
checked against Google's discovery documents; the summary goes to $FORUMWAR_DISCOVERY_REPORT.

    FORUMWAR_DISCOVERY_REPORT=report.json pytest -p tests.fake_google.discovery_plugin tests/...
"""
from __future__ import annotations

import collections
import json
import os
from typing import Any

from tests.fake_google import discovery
from tests.fake_google.fake_google import FakeGoogle

_FAKES: list[FakeGoogle] = []
_original_init = FakeGoogle.__init__


def _recording_init(self: FakeGoogle, *args: Any, **kwargs: Any) -> None:
    _original_init(self, *args, **kwargs)
    _FAKES.append(self)


def pytest_configure(config: Any) -> None:
    FakeGoogle.__init__ = _recording_init  # type: ignore[method-assign]


def pytest_unconfigure(config: Any) -> None:
    FakeGoogle.__init__ = _original_init  # type: ignore[method-assign]
    path = os.environ.get("FORUMWAR_DISCOVERY_REPORT")
    if not path:
        return
    methods: collections.Counter[str] = collections.Counter()
    problems: list[str] = []
    for fake in _FAKES:
        for sent in fake.sent:
            if not sent.bridge or not discovery.applies(sent.url):
                continue
            found = discovery.find_method(sent.method, sent.url)
            methods[found[0].id if found else f"unknown {sent.method} {sent.url}"] += 1
            problems.extend(discovery.check(sent.method, sent.url, sent.body))
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"fakes": len(_FAKES), "methods": dict(methods), "problems": problems}, fh, ensure_ascii=False)
