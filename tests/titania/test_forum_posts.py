"""Issue 11 item 1 for Titania: after each turn the archive holds forum-ready BBCode posts in Russian — the
public chronicle (battles: who, where, forces in broad strokes, totals, outcome, losses, the province's
fate; Boss and Keeper fights; events; eliminations and victory) and per battle a full report (attacker
and defenders with their Strength, every support with its value, modifiers, totals, the rule that
decided), long parts in [spoiler] — and `forumwar post` prints them. Checked with the `bbcode` parser."""
from __future__ import annotations

import copy
import html.parser
import re
import warnings
from typing import Any

import bbcode
import openpyxl
import pytest
from click.testing import CliRunner

from engine import find_ruleset
from engine.ruleset import StageResult
from engine.titania.forum_posts import TitaniaPosts, battle_report, chronicle_line, strength_words
from engine.titania.losses import attacker_loss, defender_loss, races_of
from sheets_bridge.cli import main
from sheets_bridge.gamedir import GameDir
from sheets_bridge.posts import ArchivedPost, archived
from sheets_bridge.scenarios import load_scenario
from tests.conftest import DemoRun


@pytest.fixture(scope="module")
def game(titania_demo: DemoRun) -> GameDir:
    """The whole demo: draws with natives and between armies, Boss fights, a Keeper's support."""
    return titania_demo.gd


def _turns(game: GameDir) -> range:
    """The demo's resolved turns (the last snapshot is the finished game's)."""
    return range(1, game.latest_state()["turn"])


def _posts(game: GameDir) -> list[ArchivedPost]:
    return [p for t in _turns(game) for p in archived(game.archive_path(t), t, ("orders",))]


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

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: Any) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


@pytest.mark.long
def test_every_turn_archives_the_chronicle_first_then_one_report_per_battle(game: GameDir) -> None:
    battles = game.latest_state()["battles"]
    for turn in _turns(game):
        posts = archived(game.archive_path(turn), turn, ("orders",))
        assert posts and posts[0].key == "chronicle"
        assert [p.key for p in posts[1:] if p.kind != "faction"] == [f"battle-{b['turn']}-{b['n']}" for b in battles
                                                                    if b["turn"] == turn]
        assert [p.kind for p in posts] == sorted((p.kind for p in posts), key=("public", "battle", "faction").index)
    assert sum(1 for p in _posts(game) if p.key.startswith("battle-")) == len(battles) >= 4


@pytest.mark.long
def test_every_post_renders_to_balanced_html_with_a_bbcode_parser(game: GameDir) -> None:
    parser = _parser()
    for post in _posts(game):
        rendered = parser.format(post.bbcode)
        check = _Balance()
        check.feed(rendered)
        assert check.problems == [] and check.stack == [], (post.path.name, check.problems, check.stack)
        assert not re.search(r"\[/?(b|u|i|list|\*|spoiler|code)[\]=]", rendered), post.path.name


@pytest.mark.long
def test_the_chronicle_tells_each_battle_in_broad_strokes_with_totals_losses_and_fate(game: GameDir) -> None:
    state = game.latest_state()
    battles = state["battles"]
    words = ("малый отряд", "отряд", "войско", "большое войско")
    for b in battles:
        chronicle = archived(game.archive_path(b["turn"]), b["turn"], ("orders",))[0].bbcode
        place = game.latest_state()["map"]["provinces"][b["province"]]["name"]
        line = next(ln for ln in chronicle.splitlines() if ln.startswith(f"[*][b]«{place}»[/b]"))
        if b["kind"] == "boss":
            assert f"урон Боссу {b['damage']['to_boss']}" in line and ("Босс жив" in line or "Босс повержен" in line)
            continue
        assert f"итого {b['attacker']['total']} : {b['defender']['total']}" in line
        assert f"потери: у нападающих {attacker_loss(b)}, у обороны {defender_loss(b, races_of(state))}" in line
        assert attacker_loss(b) <= b["attacker"]["strength"] and defender_loss(b) <= b["defender"]["strength"]
        assert any(f"({w})" in line for w in words)
        assert "провинция" in line
    record = game.stage_seed(1, "orders")
    first = archived(game.archive_path(1), 1, ("orders",))[0].bbcode
    assert first.startswith("[b]Титания — ход 1: Планирование и Поход[/b]")
    assert f"[code]{record.commitment}[/code]" in first and "[spoiler=Положение фракций]" in first


@pytest.mark.long
def test_a_battle_report_gives_both_sides_every_support_totals_and_the_deciding_rule(game: GameDir) -> None:
    state = game.latest_state()
    supported = [b for b in state["battles"] if b["kind"] != "boss" and b["defender"]["supports"]]
    assert supported, "the demo has a Keeper defending with support"
    for b in supported:
        post = next(p for p in _posts(game) if p.key == f"battle-{b['turn']}-{b['n']}").bbcode
        for s in b["defender"]["supports"]:
            assert f"из провинции «{state['map']['provinces'][s['from']]['name']}»: +{s['value']}" in post
        assert f"[b]Итого: {b['attacker']['total']}[/b]" in post and f"[b]Итого: {b['defender']['total']}[/b]" in post
        assert "(см. «Войско», п. 2.1" in post and "[spoiler=Потери и судьба провинции]" in post
    assert not any(re.search(r"\b(albion|grimgor|lothern|necropolis|karak|rats|grove|oaks|temple)\b", p.bbcode)
                   for p in _posts(game)), "display names, never ids"


@pytest.mark.long
def test_forumwar_post_prints_the_chronicle_and_one_battle(game: GameDir) -> None:
    runner = CliRunner()
    b = next(b for b in game.latest_state()["battles"] if b["kind"] == "keeper")
    place = game.latest_state()["map"]["provinces"][b["province"]]["name"]
    out = runner.invoke(main, ["post", str(game.path), "--turn", str(b["turn"])])
    first = out.output.split("\n=== ")[0].split("\n", 1)       # «=== Ход N: хроника … ===», then the post
    assert out.exit_code == 0 and first[0].startswith(f"=== Ход {b['turn']}: хроника")
    assert first[1].startswith(f"[b]Титания — ход {b['turn']}: Планирование и Поход[/b]")
    one = runner.invoke(main, ["post", str(game.path), "--turn", str(b["turn"]), "--battle", place.upper()])
    head, post = one.output.split("\n", 1)
    assert one.exit_code == 0 and head == f"=== Ход {b['turn']}, бой {b['n']}: {place} ==="
    assert post.startswith(f"[b]Бой {b['n']} хода {b['turn']} в провинции «{place}»[/b]")
    assert "Честность" not in one.output


def _state() -> dict[str, Any]:
    return load_scenario(find_ruleset("titania"), "demo").state


ARMY_BATTLE = {
    "n": 2, "turn": 1, "province": "marsh", "kind": "army", "result": "attacker",
    "attacker": {"faction": "grimgor", "from": "isthmus", "strength": 6, "modifiers": 1, "total": 12,
                 "supports": [{"faction": "grimgor", "from": "n_cliffs", "value": 3},
                              {"faction": "grimgor", "from": "albion", "value": 2}]},
    "defender": {"factions": ["albion", "lothern"], "strength": 5, "modifiers": 0, "total": 7,
                 "armies": [{"faction": "albion", "strength": 3}, {"faction": "lothern", "strength": 2}],
                 "supports": [{"faction": "albion", "from": "w_moor", "value": 2}]},
    "damage": {"attacker": 5, "defender": 6}, "buildings_lost": 1, "owner_after": "grimgor"}


def test_a_report_lists_every_support_with_its_value_the_modifiers_and_a_special_rule() -> None:
    text = battle_report(_state(), ARMY_BATTLE)
    assert "Орда Гримгора из провинции «Северные Утёсы»: +3" in text
    assert "Орда Гримгора из провинции «Альбион»: +2" in text
    assert "Королевство Альбион из провинции «Вересковая Пустошь»: +2" in text
    assert "Королевство Альбион 3, Высокий Лотерн 2: сила 5." in text
    assert "Модификаторы: +1 (Могущество" in text and "Модификаторы: +0." in text
    assert ("[b]Итог: победил нападающий[/b] (12 : 7) — атака выиграна: суммарная сила больше (см. «Войско», "
            "п. 2.1; «Фаза Похода», п. 7.2).") in text
    assert "Разрушено построек: 1 (см. «Фаза Похода», п. 7.2)." in text and "Владелец после боя: Орда Гримгора." in text


def test_a_special_rule_that_turned_the_result_is_named_after_the_totals() -> None:
    """Wood elves, «Хранители рощи»: a draw on their own land is the defence's victory."""
    tie = copy.deepcopy(ARMY_BATTLE)
    tie.update(result="defender", adjusted="grove")
    tie["attacker"]["total"] = tie["defender"]["total"] = 7
    text = battle_report(_state(), tie)
    assert ("[b]Итог: победила оборона[/b] (7 : 7) — ничья: суммарные силы равны, обе стороны теряют половину и "
            "отступают (см. «Войско», п. 4.1); но Хранители рощи: ничья на земле лесных эльфов — победа "
            "обороны.") in text


def test_the_chronicle_line_names_the_defenders_and_the_new_owner() -> None:
    line = chronicle_line(_state(), ARMY_BATTLE)
    assert line == ("[b]«Серые Топи»[/b]: Орда Гримгора (войско) против фракций «Королевство Альбион» и «Высокий "
                    "Лотерн» (отряд), итого 12 : 7 — победа нападающих; потери: у нападающих 5, у обороны 5 "
                    "(Королевство Альбион 3, Высокий Лотерн 2); "
                    "провинция теперь у фракции «Орда Гримгора», разрушено построек: 1.")


def test_forces_in_broad_strokes_grow_with_strength() -> None:
    assert [strength_words(n) for n in (1, 3, 7, 10)] == ["малый отряд", "отряд", "войско", "большое войско"]


def test_a_quiet_turn_says_so_and_posts_are_the_same_for_the_same_resolution() -> None:
    before = _state()
    after = copy.deepcopy(before)
    after["turn"] = 2
    posts = TitaniaPosts().posts(before, StageResult(after, {}))
    assert [p.key for p in posts if not p.faction] == ["chronicle"] and "Ход прошёл спокойно" in posts[0].bbcode
    assert posts == TitaniaPosts().posts(copy.deepcopy(before), StageResult(copy.deepcopy(after), {}))


def test_an_elimination_and_a_victory_from_the_turn_s_chronicle_are_told() -> None:
    before = _state()
    after = copy.deepcopy(before)
    after["turn"] = 2
    after["chronicle"] += [{"kind": "Выбывание", "turn": 1, "text": "Клан Крысиной Норы теряют все провинции."},
                           {"kind": "Победа", "turn": 1, "text": "Игра окончена. Победа: Королевство Альбион."}]
    after["factions"]["albion"]["won"] = True
    text = TitaniaPosts().posts(before, StageResult(after, {}))[0].bbcode
    assert "[*]Клан Крысиной Норы теряют все провинции." in text and "[*]Игра окончена. Победа:" in text
    assert "[*]Королевство Альбион (люди): провинций 1, Святилищ (Могущество) 0 — ПОБЕДА" in text
    assert "сила войск" not in text, "T4-5: no army total while the game runs"


def _journal_tab(game: GameDir, turn: int, fid: str) -> list[tuple[int, str]]:
    """The faction's «Журнал» tab as the turn's archived book has it (after the stage)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        book = openpyxl.load_workbook(game.archive_path(turn) / f"{fid}-orders.xlsx", read_only=True)
    rows = list(book["Журнал"].iter_rows(values_only=True))
    book.close()
    return [(int(t), str(text)) for t, text in rows[1:] if t is not None and text]


def _post_entries(bbcode: str) -> list[tuple[int, str]]:
    """(turn, entry) of a faction's journal post, in its order: «[u]Ход N[/u]» heads each turn's «[*]» lines."""
    out, turn = [], -1
    for line in bbcode.replace("[spoiler=Прежние ходы]", "\n").replace("[/spoiler]", "\n").splitlines():
        head = re.fullmatch(r"\[u\]Ход (\d+)\[/u\]", line)
        if head:
            turn = int(head[1])
        elif line.startswith("[*]"):
            out.append((turn, line[3:]))
    return out


@pytest.mark.long
def test_forumwar_post_faction_prints_the_faction_s_journal_of_the_stage(game: GameDir) -> None:
    """`forumwar post GAME --faction F` for Titania: the faction's post of a stage is its «Журнал» tab of that
    stage (the turn's own entries open, the turns before folded), archived as post-*-faction-ID-journal.bbcode."""
    runner = CliRunner()
    state = game.latest_state()
    for turn in _turns(game):
        posts = archived(game.archive_path(turn), turn, ("orders",))
        own = {p.faction: p for p in posts if p.kind == "faction"}
        alive = {fid for fid, f in game.read_snapshot(turn, "orders")["factions"].items() if not f.get("eliminated")}
        assert set(own) == alive
        assert all(p.path.name.endswith(f"-faction-{fid}-journal.bbcode") for fid, p in own.items())
        for fid, post in own.items():
            assert _post_entries(post.bbcode) == _journal_tab(game, turn, fid), (turn, fid)
    turn = max(_turns(game))
    name = state["factions"]["albion"]["name"]
    out = runner.invoke(main, ["post", str(game.path), "--turn", str(turn), "--faction", name.upper()])
    assert out.exit_code == 0, out.output
    head, body = out.output.split("\n", 1)
    assert head == f"=== {name}: журнал, ход {turn} ===" and out.output.count("=== ") == 1
    assert body.startswith(f"[b]{name}: журнал, ход {turn}[/b]\n\n[u]Ход {turn}[/u]\n[list]\n[*]")
    assert "[b]Прежние ходы[/b]\n[quote]" in body, "stock phpBB: the earlier turns in a titled quote"
    assert _post_entries(body.replace("[b]Прежние ходы[/b]\n[quote]", "").replace("[/quote]", "")) \
        == _journal_tab(game, turn, "albion")
    spoiler = runner.invoke(main, ["post", str(game.path), "--turn", str(turn), "--faction", "albion",
                                   "--forum", "spoiler"])
    assert spoiler.exit_code == 0 and "[spoiler=Прежние ходы][u]Ход " in spoiler.output
    rendered = _parser().format(spoiler.output.split("\n", 1)[1])
    assert not re.search(r"\[/?(b|u|list|\*|spoiler)[\]=]", rendered)


def test_a_tag_typed_into_a_name_shows_as_text_in_every_post() -> None:
    """A capital's name is typed by its players (the start by the book): «[b]…[/b]» or «[url=…]» in it must show
    as typed, never format the post. Every post of the turn — the chronicle, a battle, each faction's journal."""
    before = _state()
    before["map"]["provinces"]["albion"]["name"] = "[b]Альбион[/b] [url=http://evil]сюда[/url]"
    after = copy.deepcopy(before)
    after["turn"] = 2
    battle = copy.deepcopy(ARMY_BATTLE)
    battle.update(province="albion", owner_after="albion", result="defender")
    after["battles"] = [battle]
    after["log"] = [{"faction": "albion", "text": "Ход 1: в провинции «[b]Альбион[/b] [url=http://evil]сюда[/url]» "
                                                  "разрушено: ферма."}]
    after["chronicle"] = [*after["chronicle"], {"kind": "Событие", "turn": 1, "text": "[i]кто-то[/i] написал"}]
    posts = TitaniaPosts().posts(before, StageResult(after, {}))
    assert {p.key for p in posts} >= {"chronicle", "1-2", "journal"}
    parser = _parser()
    parser.replace_links = False          # a bare address is linked by forums too: only tags matter here
    for post in posts:
        rendered = parser.format(post.bbcode)
        assert "<a " not in rendered and "<i>" not in rendered and "<strong>Альбион" not in rendered, post.key
        assert "[b]Альбион" not in post.bbcode and "[i]кто" not in post.bbcode, post.key
    journal = next(p for p in posts if p.faction == "albion").bbcode
    assert ("[*]Ход 1: в провинции «[\u200bb]Альбион[\u200b/b] [\u200burl=http://evil]сюда[\u200b/url]» "
            "разрушено") in journal
