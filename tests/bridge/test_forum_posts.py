"""Issue 11 item 1: after each stage the archive holds forum-ready BBCode posts in Russian — the public
chronicle (battles: who, where, forces in broad strokes, outcome, losses, the city's fate; the seed
commitment and how to check it) and per battle a full report in the rule book's post template — and
`forumwar post` prints them. Checked with a real BBCode parser rendering them to balanced HTML."""
from __future__ import annotations

import html.parser
import re

import bbcode
import pytest
from click.testing import CliRunner

from sheets_bridge.cli import main
from sheets_bridge.posts import archived

pytestmark = pytest.mark.long


@pytest.fixture(scope="module")
def game(jade_rose_demo):
    """The Jade Rose demo; its first turn has orders with battles that need planning, then the planning."""
    return jade_rose_demo.gd


def _parser() -> bbcode.Parser:
    parser = bbcode.Parser()
    parser.add_formatter("spoiler", lambda tag, value, options, parent, context:
                         f"<details><summary>{options.get('spoiler', 'Спойлер')}</summary>{value}</details>")
    return parser


class _Balance(html.parser.HTMLParser):
    VOID = {"br", "hr", "img"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def _posts(game, stage=None):
    found = archived(game.archive_path(1), 1, ("orders", "planning"))
    return [p for p in found if stage is None or p.stage == stage]


def test_each_stage_archives_its_posts_the_chronicle_first(game):
    for stage in ("orders", "planning"):
        keys = [p.key for p in _posts(game, stage)]
        assert keys[0] == "chronicle", keys
        assert any(k.startswith("faction-empire-") for k in keys)
    assert any(p.key.startswith("battle-") for p in _posts(game, "planning")), "the demo's battles are reported"


def test_every_post_renders_to_balanced_html_with_a_bbcode_parser(game):
    parser = _parser()
    for post in _posts(game):
        rendered = parser.format(post.bbcode)
        check = _Balance()
        check.feed(rendered)
        assert check.problems == [] and check.stack == [], (post.path.name, check.problems, check.stack)
        assert not re.search(r"\[/?(b|u|i|list|\*|spoiler|code)[\]=]", rendered), post.path.name


def test_the_chronicle_tells_each_battle_and_the_fairness_of_the_dice(game):
    """«forces in broad strokes, outcome, losses, the fate of the city», and the seed commitment."""
    chronicle = _posts(game, "planning")[0].bbcode
    battles = [p for p in _posts(game, "planning") if p.key.startswith("battle-")]
    assert "[u]Бои[/u]" in chronicle and ("атака удалась" in chronicle or "атака отбита" in chronicle)
    assert re.search(r"потери: у атаки \d+, у обороны \d+", chronicle)
    assert any(w in chronicle for w in ("горстка воинов", "небольшой отряд", "армия", "огромная армия"))
    for post in battles:
        city = re.match(r"\[b\]\[u\]Бой за город (.+?) \(ход 1\)", post.bbcode).group(1)
        assert f"[b]{city}[/b]" in chronicle
    record = game.stage_seed(1, "planning")
    assert f"Хеш, опубликованный до этапа: [code]{record.commitment}[/code]" in chronicle
    assert record.seed in chronicle and record.salt in chronicle and "sha256sum" in chronicle
    assert "[b]Война Нефритовой Розы — ход 1, приказы[/b]" in _posts(game, "orders")[0].bbcode
    assert "[u]Назначены бои[/u]" in _posts(game, "orders")[0].bbcode


def test_a_battle_report_follows_the_rule_book_s_deployment_template(game):
    """Rule book L337–346: «[b]Правый фланг:[/b] / [u]Авангард[/u] - … (манёвр: …)», long parts folded."""
    post = next(p for p in _posts(game, "planning") if p.key.startswith("battle-"))
    text = post.bbcode
    assert re.search(r"^\[b\](Правый|Центральный|Левый) фланг:\[/b\]$", text, re.M)
    assert re.search(r"^\[u\](Авангард|Арьергард)\[/u\] - \S", text, re.M)
    assert "[b]Атакующий: " in text and "[b]Защитник: " in text
    assert "[spoiler=Ход боя]" in text and "[/spoiler]" in text and "[b]Итог:[/b] победил " in text
    assert not re.search(r"\b(empire|vampires|dwarves|jade)\b", text), "display names, not ids"


def test_forumwar_post_prints_what_its_help_promises_each_post_under_a_heading(game):
    """Issue 23 item 4: «`post` prints what its help promises, each post under a heading line that names the
    post (not the BBCode), and one faction post per turn with the turn's final figures.»"""
    runner = CliRunner()
    out = runner.invoke(main, ["post", str(game.path), "--turn", "1"])
    assert out.exit_code == 0, out.output
    headings = [line for line in out.output.splitlines() if line.startswith("=== ")]
    assert headings[:2] == ["=== Ход 1: хроника, этап «приказы» ===",
                            "=== Ход 1: хроника, этап «планирование боёв» ==="]
    battles = [h for h in headings if h.startswith("=== Бой за ")]
    factions = [h for h in headings if h.endswith(": города ===")]
    assert battles and headings.index(battles[-1]) < headings.index(factions[0]), "chronicles, battles, factions"
    assert sorted(factions) == sorted(f"=== {n}: города ===" for n in ("Империя", "Вампиры", "Дворфы",
                                                                       "Нефритовый двор")), "one post each"
    assert out.output.count("СУММАРНЫЙ ДОХОД В ХОД:") == 4
    assert all(not h.strip("= ").startswith("[") for h in headings), "headings name the post, not its BBCode"
    battle = next(p for p in _posts(game, "planning") if p.key.startswith("battle-"))
    city = re.match(r"\[b\]\[u\]Бой за город (.+?) \(ход 1\)", battle.bbcode).group(1)
    one = runner.invoke(main, ["post", str(game.path), "--turn", "1", "--battle", city.upper(), "--forum", "spoiler"])
    assert one.exit_code == 0 and one.output.count("[spoiler=Ход боя]") >= 1 and "Честность" not in one.output
    own = runner.invoke(main, ["post", str(game.path), "--turn", "1", "--faction", "Империя"])
    assert own.exit_code == 0 and own.output.startswith("=== Империя: города ===\nГорода:")
    assert own.output.count("=== ") == 1, "the turn's final figures once, not one post per stage"
    last = [p for p in _posts(game) if p.key.startswith("faction-empire-")][-1]
    assert last.stage == "planning" and last.bbcode.rstrip() in own.output
    bad = runner.invoke(main, ["post", str(game.path), "--faction", "Орки"])
    assert bad.exit_code == 1 and "фракции «Орки» нет в игре; есть: " in bad.output
    none = runner.invoke(main, ["post", str(game.path), "--turn", "70"])
    assert none.exit_code == 1 and "постов хода 70 нет" in none.output


STOCK_PHPBB = ("b", "i", "u", "quote", "code", "list", "*", "url", "img", "color", "size", "email")


def _forum_parser(tags: tuple[str, ...]) -> bbcode.Parser:
    """A parser that knows only `tags`: whatever else a post uses stays as literal text, as on that forum."""
    parser = bbcode.Parser(install_defaults=False)
    for tag in tags:
        if tag == "*":
            parser.add_simple_formatter("*", "<li>%(value)s</li>", standalone=False, same_tag_closes=True)
        elif tag == "list":
            parser.add_simple_formatter("list", "<ul>%(value)s</ul>")
        else:
            parser.add_simple_formatter(tag, f"<{tag}>%(value)s</{tag}>")
    return parser


@pytest.mark.parametrize(("forum", "tags"), [
    ("phpbb", STOCK_PHPBB), ("spoiler", (*STOCK_PHPBB, "spoiler")), ("xenforo", (*STOCK_PHPBB, "spoiler")),
])
def test_each_forum_dialect_uses_only_tags_its_forum_renders(game, forum, tags):
    """Issue 23 item 4: «`[spoiler]` is not stock phpBB. Offer the forum's dialect (`--forum phpbb|…`) with
    a fallback that stock phpBB renders. Test each dialect's tags with the bbcode parser.»"""
    out = CliRunner().invoke(main, ["post", str(game.path), "--turn", "1", "--forum", forum])
    assert out.exit_code == 0, out.output
    body = "\n".join(line for line in out.output.splitlines() if not line.startswith("=== "))
    rendered = _forum_parser(tags).format(body)
    assert not re.search(r"\[/?[A-Za-z*]+(=[^\]]*)?\]", rendered), f"tags {forum} does not render are left"
    checker = _Balance()
    checker.feed(rendered)
    assert checker.problems == [] and checker.stack == []
    if forum == "phpbb":
        assert "[spoiler" not in body and "[b]Ход боя[/b]\n[quote]" in body
    if forum == "xenforo":
        assert '[SPOILER="Ход боя"]' in body

def test_the_forum_dialect_of_game_toml_is_the_default_and_a_bad_one_is_refused(game, tmp_path):
    import shutil

    from sheets_bridge.gameconfig import FORUMS
    from sheets_bridge.gamedir import GameDir
    from sheets_bridge.posts import DIALECTS
    assert set(FORUMS) == set(DIALECTS)
    copy = tmp_path / "g"
    shutil.copytree(game.path, copy)
    toml = copy / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + '\n[forum]\ndialect = "xenforo"\n', encoding="utf-8")
    assert GameDir(copy).config.forum == "xenforo"
    out = CliRunner().invoke(main, ["post", str(copy), "--turn", "1"])
    assert out.exit_code == 0 and '[SPOILER="' in out.output
    toml.write_text(toml.read_text(encoding="utf-8").replace('"xenforo"', '"vbulletin"'), encoding="utf-8")
    bad = CliRunner().invoke(main, ["post", str(copy)])
    assert bad.exit_code == 1 and "[forum] — это dialect = одно из: phpbb, spoiler, xenforo" in bad.output
