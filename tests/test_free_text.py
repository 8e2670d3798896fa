"""Issue 38 §3, «Names that others read»: «Every name a player types that others will read (capital names, army
names, anything free) refuses markup (BBCode tags), control, bidi and zero-width characters. It also refuses a
name that reads like an existing one (after folding case, look-alike letters and spaces). The message says why.
Defence in depth: every post escapes every string a player wrote, so a tag in it shows as text on phpBB and on
the other forum dialects the posts support. Test it with a payload list (BBCode, bidi, zero-width, formula,
very long, empty) over every free-text field of both rule sets.»

The red team's three names: «[/quote][url=http://x.example]Ж[/url]», «\\u202e[img]http://x.example/a.png[/img]»
and «Вересковая Пустошь» with a zero-width space, each of which went raw into the chronicle and the books."""
from __future__ import annotations

import tomllib
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bbcode
import pytest

from engine import find_ruleset
from engine.free_text import NO_TAG, Taken, looks_like, name_problem, plain, plain_title, text_problem
from engine.jade_rose import war
from engine.jade_rose.adjustments import parse_adjustments
from engine.jade_rose.battle import fight_once, parse_spec
from engine.jade_rose.forum_posts import cities_post
from engine.jade_rose.war.posts import fight_post
from engine.ruleset import ParsedOrders, Row
from sheets_bridge.posts import DIALECTS, in_dialect
from tests.jade_rose.war_kit import ARMY_KEYS, ORDER_KEYS, make_game, rows

ROOT = Path(__file__).resolve().parents[1]
TITANIA = find_ruleset("titania")

# (what it is, the text, the code a name refuses it with; None: the field's own rule for an empty cell)
PAYLOADS = [
    ("BBCode", "[/quote][url=http://x.example]Ж[/url]", "E_NAME_MARKUP"),
    ("bidi", "\u202e[img]http://x.example/a.png[/img]", "E_NAME_INVISIBLE"),
    ("zero-width", "Вересковая Пустошь\u200b", "E_NAME_INVISIBLE"),
    ("formula", "=HYPERLINK(\"http://x.example\";\"Ж\")", "E_NAME_FORMULA"),
    ("formula sign", "=1+2", "E_NAME_FORMULA"),
    ("HTML", "<script>alert(1)</script>", "E_NAME_MARKUP"),
    ("a link", "см. x.example", "E_NAME_LINK"),
    ("very long", "Очень" * 70, "E_NAME_TOO_LONG"),
    ("a line break", "Север\nЮг", "E_NAME_INVISIBLE"),
    ("mixed alphabets", "Вoлна", "E_NAME_MIXED"),
    ("empty", "", None),
]
INVISIBLE = {"\u202e", "\u200b", "\u200e", "\u2066"}


def shown_safely(message: str) -> bool:
    """A message quotes a typed value with no invisible, bidi or control character left in it."""
    return not any(unicodedata.category(ch) in ("Cf", "Cc") and ch != "\n" for ch in message)


# -- the rules of a name ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("what", "text", "code"), [p for p in PAYLOADS if p[2]], ids=[p[0] for p in PAYLOADS if p[2]])
def test_a_name_refuses_each_payload_and_says_why(what: str, text: str, code: str) -> None:
    """«refuses markup (BBCode tags), control, bidi and zero-width characters … The message says why.»"""
    got = name_problem(text, limit=40)
    assert got is not None and got.code == code, what
    assert shown_safely(got.message()) and "не принято" in got.message() or code == "E_NAME_TOO_LONG"


def test_a_name_that_reads_like_an_existing_one_is_refused_after_folding_case_letters_and_spaces() -> None:
    """«It also refuses a name that reads like an existing one (after folding case, look-alike letters and
    spaces).» Latin «Poca» reads as Cyrillic «Роса»; a double space, capitals and ё change nothing."""
    taken = [Taken("провинции", "Вересковая Пустошь"), Taken("провинции", "Роса"), Taken("города", "Берёзов")]
    for name, other in [("Poca", "Роса"), ("вересковая  ПУСТОШЬ", "Вересковая Пустошь"), ("Березов", "Берёзов"),
                        ("BEPECKOBAЯ ПYCTOШЬ", "Вересковая Пустошь")]:
        got = name_problem(name, limit=40, taken=taken)
        assert got is not None, name
        assert got.code in ("E_NAME_LOOKALIKE", "E_NAME_MIXED"), (name, got.code)
        if got.code == "E_NAME_LOOKALIKE":
            assert f"не отличить от названия {('провинции', 'города')[other == 'Берёзов']} «{other}»" in got.message()
    assert looks_like("Poca", "Роса") and not looks_like("Кузня", "Кузнец")
    assert name_problem("Новый Рим", limit=40, taken=taken) is None
    assert name_problem("Кузня-на-Холме №2", limit=40, taken=taken) is None


def test_free_text_of_the_gm_takes_links_and_any_letters_but_no_markup_or_invisible_characters() -> None:
    """«anything free»: the GM's «Причина» goes to the journals, the ledger and posts."""
    assert text_problem("компенсация, см. http://forum.example/t=5", column="Причина", limit=300) is None
    for text, code in [("[b]штраф[/b]", "E_TEXT_MARKUP"), ("штраф\u202e", "E_TEXT_INVISIBLE"),
                       ("ж" * 301, "E_TEXT_TOO_LONG")]:
        got = text_problem(text, column="Причина", limit=300)
        assert got is not None and got.code == code and shown_safely(got.message())


# -- every free-text field of both rule sets ------------------------------------------------------------------

def _titania_capital(text: str) -> ParsedOrders:
    scenario = tomllib.loads((ROOT / "templates/titania/scenarios/start.toml").read_text(encoding="utf-8"))
    state = TITANIA.new_game(scenario)
    return TITANIA.validate(state, "north", "setup", {"start": [Row(2, {
        "colour": "синий", "race": "люди", "capital": "белые скалы", "capital_name": text})]})


def _titania_reason(text: str) -> ParsedOrders:
    scenario = tomllib.loads((ROOT / "templates/titania/scenarios/demo.toml").read_text(encoding="utf-8"))
    state = TITANIA.new_game(scenario)
    return TITANIA.validate_gm(state, "orders", {"corrections": [Row(2, {
        "action": "Ресурс", "faction": "Королевство Альбион", "what": "Золото", "amount": "2", "reason": text})]})


def _jade_rose_army(text: str) -> ParsedOrders:
    state = make_game({"empire": {"Копейщик": 10}})
    _plan, statuses = war.parse_war_tabs(state, "empire", {
        "armies": rows(ARMY_KEYS, (text, "Центр", "Авангард", "Копейщик", 5)), "army_orders": [], "garrisons": []})
    return ParsedOrders("empire", "orders", (), tuple(statuses))


def _jade_rose_order(text: str) -> ParsedOrders:
    state = make_game({"empire": {"Копейщик": 10}})
    _plan, statuses = war.parse_war_tabs(state, "empire", {
        "armies": rows(ARMY_KEYS, ("Волна", "Центр", "Авангард", "Копейщик", 5)),
        "army_orders": rows(ORDER_KEYS, (text, "Атаковать", "Цинхэ", "Колонизировать", "Да")), "garrisons": []})
    return ParsedOrders("empire", "orders", (), tuple(s for s in statuses if s.tab == "army_orders"))


def _jade_rose_reason(text: str) -> ParsedOrders:
    state = make_game({"empire": {"Копейщик": 10}})
    _orders, statuses = parse_adjustments(state, [Row(2, {"faction": "Империя", "resource": "Золото",
                                                           "amount": "100", "reason": text})])
    return ParsedOrders("gm", "orders", (), tuple(statuses))


FIELDS: dict[str, Callable[[str], ParsedOrders]] = {
    "Titania «Начало игры» «Название столицы»": _titania_capital,
    "Titania «Корректировки» «Причина»": _titania_reason,
    "Jade Rose «Армии» «Армия»": _jade_rose_army,
    "Jade Rose «Приказы армиям» «Армия»": _jade_rose_order,
    "Jade Rose «Корректировки» «Причина»": _jade_rose_reason,
}


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize(("what", "text", "code"), PAYLOADS, ids=[p[0] for p in PAYLOADS])
def test_every_free_text_field_refuses_every_payload_with_a_message_that_shows_it_safely(
        field: str, what: str, text: str, code: str | None) -> None:
    """The payload list over every free-text field: the row is refused (an empty capital name keeps the
    province's name, an empty army name is a missing army), its message says why and quotes the text with
    nothing invisible left in it; nothing crashes."""
    parsed = FIELDS[field](text)
    (status,) = parsed.statuses
    if field.endswith("«Название столицы»") and not text:
        assert status.ok
        return
    if field.endswith("«Причина»") and what in ("a link", "formula", "formula sign", "mixed alphabets",
                                                "a line break"):
        assert status.ok, "the GM's free text may hold a link, any sign, any letters and lines"
        return
    if field.endswith("«Приказы армиям» «Армия»") and what == "mixed alphabets":
        assert status.ok, "«Вoлна» with a Latin «o» is read as the army «Волна» it reads like"
        return
    assert not status.ok, (field, what)
    assert shown_safely(status.text()), status.text()
    assert "E_INTERNAL" not in [e.code for e in status.errors]


# -- every post escapes every string a player wrote -------------------------------------------------------------

def _tags_applied(post: str, dialect: str) -> list[str]:
    """The tags a forum of `dialect` applies in `post` (a parser that knows exactly that dialect's tags)."""
    parser = bbcode.Parser(replace_links=False, install_defaults=False)
    for tag in DIALECTS[dialect].tags | {"spoiler"}:
        parser.add_simple_formatter(tag, f"<{tag}>%(value)s</{tag}>")
    seen: list[str] = []
    for token_type, tag, _opts, _text in parser.tokenize(in_dialect(post, dialect)):
        if token_type in (parser.TOKEN_TAG_START, parser.TOKEN_TAG_END):
            seen.append(tag)
    return seen


def _jade_rose_posts(name: str) -> list[str]:
    """A battle post and a cities post of Jade Rose where the city, the faction and the army carry `name`
    (as if a check had let it through: the posts must not rely on it)."""
    state: dict[str, Any] = make_game({"empire": {"Копейщик": 10}})
    state["cities"]["qinghe"]["name"] = name
    state["factions"]["empire"]["name"] = name
    spec = {"attacker": {"faction": "empire", "squads": [{"flank": "center", "line": "vanguard",
                                                          "units": {"Копейщик": 6}}]},
            "defender": {"faction": "jade", "squads": [{"flank": "center", "line": "vanguard",
                                                        "units": {"Копейщик": 4}}]}}
    spec["defender"]["squads"][0]["units"] = {"Нефритовый воин": 4}
    battle = parse_spec(spec)
    result = fight_once(battle, 7)
    post = fight_post(state, "qinghe", "b1-qinghe-1", battle, result, {"attacker": "empire", "defender": "jade"},
                      {"attacker": f"армия «{name}»", "defender": "гарнизон"})
    return [post["bbcode"], cities_post(state, "empire").bbcode]


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_a_tag_in_any_name_shows_as_text_in_the_jade_rose_posts_on_every_dialect(dialect: str) -> None:
    """«every post escapes every string a player wrote, so a tag in it shows as text on phpBB and on the other
    forum dialects the posts support»: the posts with the red team's names apply exactly the tags they apply
    with a plain name."""
    for payload in ("[/quote][url=http://x.example]Ж[/url]", "\u202e[img]http://x.example/a.png[/img]",
                    "[spoiler=x]Ж[/spoiler]"):
        for safe, raw in zip(_jade_rose_posts("Цинхэ"), _jade_rose_posts(payload), strict=True):
            assert _tags_applied(raw, dialect) == _tags_applied(safe, dialect), payload
            assert "\u202e" not in raw and "[url" not in raw and "[img" not in raw


def test_plain_keeps_the_text_readable_and_a_spoiler_title_whole() -> None:
    """The escape shows the text as typed (a zero-width space after «[»), and a title inside «[spoiler=…]»
    cannot end the tag early."""
    assert plain("[b]Ж[/b]") == f"[{NO_TAG}b]Ж[{NO_TAG}/b]"
    assert plain("Альбион\u202e") == "Альбион"
    assert "]" not in plain_title('Бой за «X]» "Y"') and '"' not in plain_title('Бой за "Y"')
