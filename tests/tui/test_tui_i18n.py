"""The message catalogue: complete in both languages, params match, CJK widths."""

from __future__ import annotations

import re
from pathlib import Path

from rich.cells import cell_len

from protocol.catalogue import EN, ZH
from protocol.contract import ClientError
from protocol.i18n import error_text, field_label, game_title, params_of, t
from tui.text import clip, fit, fit_parts


def test_every_key_exists_in_both_languages() -> None:
    assert set(EN) - set(ZH) == set()
    assert set(ZH) - set(EN) == set()
    # a message is empty in both languages or in neither
    assert [k for k in EN if bool(EN[k].strip()) != bool(ZH[k].strip())] == []


NAMELESS_IN_ZH = {"sk.seat_you", "ov.you"}
"""The viewer's own seat: English names it (``bob (2, you)``, so that the verbs of
the log agree: "bob (2, you) plays first"), Chinese says 你 (its verbs do not
change with the person)."""


def test_format_params_match_between_languages() -> None:
    mismatched = {key: (params_of(EN[key]), params_of(ZH[key])) for key in EN if params_of(EN[key]) != params_of(ZH[key])}
    # the Chinese of an illegal action's reason leaves out the engine's English detail ({msg})
    # (but not of a seat that is none: the engine numbers seats from 0, players from 1)
    english_detail = {k for k in EN if k.startswith("err.illegal.") and k != "err.illegal.bad-seat"}
    assert {key: (en - zh, zh - en) for key, (en, zh) in mismatched.items()} == {
        **dict.fromkeys(NAMELESS_IN_ZH, ({"name"}, set())),
        **dict.fromkeys(english_detail, ({"msg"}, set())),
        "ssh.owned-after-banner": (set(), {"other"}),  # the English auth banner said the rest
    }


HAN = "\u4e00-\u9fff"
HALF_WIDTH_BESIDE_CHINESE = re.compile(
    rf"[{HAN}][,:;!?(]|[,:;!?)][{HAN}]|\([^()]*[{HAN}][^()]*\)"
)
"""ASCII punctuation touching a Chinese character, or ASCII parentheses around
Chinese words; the legend's signs (``( ) 中立角色``, ``? 筆記``) stand apart."""


ASCII_PUNCTUATION = re.compile(r"[,;!?]|:(?!\d)")
"""In a Chinese message (its ``{params}`` left out) only ``10:30``-like colons."""
SIGNS = {"sk.legend"}  # "? 筆記" is the sign drawn on a seat


def test_chinese_text_uses_full_width_punctuation() -> None:
    """Every screen's Chinese says ，：；！？ and （） as the lobby's and the
    Overlord table's do (the Sultans table said "Bot 2(2) 公開了 [蘇丹](宣示王權)"
    beside the lobby's "房間（1）", and "你(1) 行刺 alice(0)!")."""
    from tui.overlord import catalogue

    every = dict(ZH)
    for table in (catalogue.CARDS_ZH, catalogue.ROLES_ZH, catalogue.EFFECT_ZH, catalogue.ROLE_RULES_ZH):
        every.update({f"ov:{key}": text for key, text in table.items()})
    assert {key: text for key, text in every.items() if HALF_WIDTH_BESIDE_CHINESE.search(text)} == {}
    chinese = {key: re.sub(r"\{\w*\}", "", text) for key, text in every.items() if re.search(f"[{HAN}]", text)}
    assert {key: text for key, text in chinese.items() if key not in SIGNS and ASCII_PUNCTUATION.search(text)} == {}
    assert t("sk.ev.reveal", "zh", who=t("sk.seat", "zh", name="Bot 2", n=2), card="[蘇丹]",
             cause=t("sk.cause.claim", "zh")) == "Bot 2（2）公開了 [蘇丹]（宣示王權）。"


def test_chinese_text_sets_numbers_apart_from_the_words() -> None:
    """"抽 1 張牌"、"拿 2 元" as the roles' rules and the lobby say it: the Overlord
    cards' effects said "抽1張牌"、"從國庫拿2元" beside the role text "抽 1 張牌"."""
    from tui.overlord import catalogue

    every = dict(ZH)
    for table in (catalogue.CARDS_ZH, catalogue.ROLES_ZH, catalogue.EFFECT_ZH, catalogue.ROLE_RULES_ZH):
        every.update({f"ov:{key}": text for key, text in table.items()})
    assert {key: text for key, text in every.items() if re.search(f"[{HAN}][0-9]|[0-9][{HAN}]", text)} == {}
    assert catalogue.EFFECT_ZH["capitalize"] == "把指示物交給左或右距離恰為 2 的玩家；從國庫拿 2 元。"


def test_a_chinese_line_spaces_a_name_only_where_it_is_not_chinese() -> None:
    """The templates put a space around a name for Latin names ("指示物到了
    alice（2）"); beside a Chinese name or a full-width bracket it read "指示物到了
    你（1）", "Bot 3（4） 持有指示物", "付給 國庫 1 元"."""
    assert t("ov.log.order", "zh", dst="alice（2）") == "指示物到了 alice（2）。"
    assert t("ov.log.order", "zh", dst="你（1）") == "指示物到了你（1）。"
    assert t("ov.log.gold", "zh", src="Bot 1（2）", dst="國庫", gold=1, why="收入") == "Bot 1（2）付給國庫 1 元（收入）。"
    assert t("ov.log.gold", "zh", src="國庫", dst="你（1）", gold=2, why="收入") == "國庫付給你（1）2 元（收入）。"
    assert t("ov.log.gold", "zh", src="bob", dst="carol", gold=2, why="x") == "bob 付給 carol 2 元（x）。"
    assert t("sk.ev.reveal", "zh", who="小明（3）", card="[蘇丹]", cause="（宣示王權）") == "小明（3）公開了 [蘇丹]（宣示王權）。"
    # English is filled as written, and so is every Chinese message with Latin names
    assert t("ov.log.order", "en", dst="you (1)") == "The order goes to you (1)."
    for key, template in ZH.items():
        names = params_of(template)
        if names:
            assert t(key, "zh", **dict.fromkeys(names, "x")) == template.format(**dict.fromkeys(names, "x")), key


def test_every_key_used_by_the_screens_is_in_the_catalogue() -> None:
    used: set[str] = set()
    for path in Path(__file__).resolve().parents[2].joinpath("tui").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'\btr?\(\s*"([a-z_.-]+)"', source))
        used |= set(re.findall(r'\(\s*"[^"]*",\s*"[a-z_]+",\s*"(key\.[a-z_]+)"\)', source))
    missing = sorted(k for k in used if k not in EN)
    assert missing == []
    assert "key.join" in used and "table.your_move" in used


def test_seat_lists_in_the_logs_follow_the_language() -> None:
    """Seats named in a log line: "bob (2), carol (3)"; in Chinese "bob（2）、carol（3）"."""
    from tui.overlord.words import Namer as OverlordNamer
    from tui.overlord.words import levy_parts
    from tui.sultans.words import Namer as SultansNamer

    names = ["alice", "bob", "carol"]
    assert SultansNamer(names, None, "en").seats([1, 2]) == "bob (2), carol (3)"
    assert SultansNamer(names, None, "zh").seats([1, 2]) == "bob（2）、carol（3）"
    assert levy_parts(((1, 2), (2, 1)), OverlordNamer(names, None, "zh")) == "bob（2）2 元、carol（3）1 元"
    assert levy_parts(((1, 2), (2, 1)), OverlordNamer(names, None, "en")) == "2 from bob (2), 1 from carol (3)"


def test_t_fills_params_and_falls_back() -> None:
    assert t("lobby.rooms", "en", n=3) == "Rooms (3)"
    assert t("lobby.rooms", "zh", n=3) == "房間（3）"
    assert t("no.such.key", "zh") == "no.such.key"
    assert t("lobby.rooms", "zh") == "房間（{n}）"  # no params: the template as is
    assert t("confirm.kick", "en", name="[/b]") == "Remove [/b] from the room? They cannot join or watch it again."


def test_errors_by_code_and_unknown_codes() -> None:
    assert error_text(ClientError("stale", "old"), "en").startswith("The table changed")
    assert error_text(ClientError("illegal", "peek 9: no seat 9"), "zh") == "現在不能這樣做：peek 9: no seat 9"
    assert error_text(ClientError("brand-new", "some reason"), "en") == "Refused: some reason"


def test_titles_and_labels() -> None:
    assert game_title("sultans", "zh") == "推翻蘇丹"
    assert game_title("overlord", "en", short=True) == "Overlord"
    assert game_title("chess", "zh") == "chess"
    assert field_label("your_card", "en") == "Your card"
    # the word the Sultans table and the seed rules use (the lobby's help said 中央角色卡, the table 中央牌)
    assert field_label("spare", "zh") == "中央牌"


def test_cjk_text_is_measured_in_cells() -> None:
    assert cell_len(fit("王小明", 10)) == 10
    assert cell_len(fit("abc", 10)) == 10
    assert cell_len(fit("王小明王小明", 7)) == 7
    assert fit("王小明王小明", 7).endswith("…")
    assert clip("推翻蘇丹的房間名稱", 9) == "推翻蘇丹…"
    assert clip("short", 9) == "short"


def test_pack_items_breaks_between_items_in_cells() -> None:
    import io

    from rich.console import Console
    from rich.text import Text

    from tui.text import pack_items

    console = Console(file=io.StringIO(), width=200, color_system=None)

    def plain(text: str, width: int, sep: str = "  ") -> list[str]:
        return [line.plain for line in pack_items(Text(text), width, console, sep)]

    assert plain("a b  c d  e", 20) == ["a b  c d  e"]  # fits: as it is
    assert plain("a b  c d  e", 8) == ["a b  c d", "e"]
    assert plain("a b  c d  e", 4) == ["a b", "c d", "e"]
    assert plain("one two three", 8) == ["one two", "three"]  # no items: words
    assert plain("x  a long item here  y", 8) == ["x", "a long", "item", "here  y"]  # an item wider: words
    assert plain("Spare ▒▒   ♛ before", 10) == ["Spare ▒▒", "♛ before"]  # no line starts with a space
    assert plain("推翻蘇丹 · 第一局 · 回合", 13, " · ") == ["推翻蘇丹", "第一局 · 回合"]  # cells, not characters
    styled = Text("a  b")
    styled.stylize("bold", 3, 4)
    assert pack_items(styled, 2, console)[1].spans[0].style == "bold"  # styles kept


def test_fit_parts_drops_whole_parts_never_cuts_a_number() -> None:
    parts = ["Overlord", "Round 1/30", "order phase", "crown at 40", "You: bob (1)"]
    assert fit_parts(parts, 0) == " · ".join(parts)
    assert fit_parts(parts, 200) == " · ".join(parts)
    assert fit_parts(parts, 48) == "Overlord · Round 1/30 · order phase · …"  # not "crown at 4…"
    assert fit_parts(parts, 53) == "Overlord · Round 1/30 · order phase · crown at 40 · …"
    assert fit_parts(parts, 52) == "Overlord · Round 1/30 · order phase · …"
    assert fit_parts(["刺殺領主", "第 1/30 回合"], 12) == "刺殺領主 · …"
    assert fit_parts(["a very long title"], 8) == "a very …"


def test_a_card_that_made_a_draw_or_a_discard_is_not_read_as_the_card_drawn() -> None:
    """K-CARD effects in the Overlord log: "Bot 5 (5) draws 1 ([Sidestep])."
    read as the card drawn (a hidden card shown to all) and "棄掉 [殉節]
    （[迫害]）" as two cards; the cause now says it is one."""
    from engine.overlord.views import Event
    from tui.overlord.words import Namer, event_text

    names = ["alice", "bob", "carol", "dave", "Bot 5"]
    draw = Event(n=1, round=1, kind="draw", params={"seat": 4, "count": 1, "why": "sidestep"})
    discard = Event(n=2, round=1, kind="discard", params={"seat": 2, "card": "martyrdom", "why": "victimize"})
    captain = Event(n=3, round=1, kind="discard", params={"seat": 1, "card": "martyrdom", "why": "captain"})
    en, zh = Namer(names, None, "en"), Namer(names, None, "zh")
    assert event_text(draw, en, "en").plain == "Bot 5 (5) draws 1 (by [Sidestep])."
    assert event_text(draw, zh, "zh").plain == "Bot 5（5）抽 1 張（[閃避]的效果）。"
    assert event_text(discard, zh, "zh").plain == "carol（3）棄掉 [殉節]（[迫害]的效果）。"
    assert event_text(captain, en, "en").plain == "bob (2) discards [Martyrdom] (the Captain's power)."
    assert event_text(captain, zh, "zh").plain == "bob（2）棄掉 [殉節]（船長的能力）。"
    squire = Event(n=4, round=1, kind="draw", params={"seat": 1, "count": 1, "why": "squire"})  # its own key
    assert event_text(squire, zh, "zh").plain == "bob（2）抽 1 張（護衛的能力）。"  # was "（護衛）"
    # K-ROLE-CAPTAIN / Victimize against an empty hand: said, not silent
    nothing = Event(n=5, round=1, kind="no-discard", params={"seat": 3, "why": "captain"})
    assert event_text(nothing, en, "en").plain == "dave (4) has no card to discard (the Captain's power)."
    victim = Event(n=6, round=1, kind="no-discard", params={"seat": 3, "why": "victimize"})
    assert event_text(victim, zh, "zh").plain == "dave（4）沒有牌可棄（[迫害]的效果）。"
    calm = Event(n=7, round=1, kind="no-exchange", params={})  # after a Revolution: nobody executed
    assert event_text(calm, en, "en").plain == "Nobody was executed: no role changes hands."


def test_plead_guilty_reads_as_taking_the_order_not_giving_it() -> None:
    """K-ORD-5: Plead Guilty takes the order from the holder. The log read
    "Bot 2 (2) plays [Plead Guilty] → you (1).", the arrow every other card
    uses to give the order away."""
    from engine.overlord.views import Event
    from tui.overlord.words import Namer, event_text

    names = ["alice", "Bot 2", "carol", "dave"]
    plead = Event(n=1, round=1, kind="play", params={"seat": 1, "card": "plead-guilty", "target": 0})
    sidestep = Event(n=2, round=1, kind="play", params={"seat": 1, "card": "sidestep", "target": 2})
    # "to take": it takes the order only if no Retaliate cancels it (K-ORD-4); "The order goes to" says so
    assert event_text(plead, Namer(names, 0, "en"), "en").plain == "Bot 2 (2) plays [Plead Guilty] to take the order from alice (1, you)."
    assert event_text(plead, Namer(names, 2, "zh"), "zh").plain == "Bot 2（2）打出 [認罪]，要從 alice（1）手上拿走指示物。"
    assert event_text(sidestep, Namer(names, None, "en"), "en").plain == "Bot 2 (2) plays [Sidestep] → carol (3)."


def test_the_overlord_help_names_things_as_the_table_does_and_states_the_draw() -> None:
    """K-RND-2: each player draws min(2, limit - hand), not "up to the limit";
    the help called the Outlaw 亡命徒 and the desperation cards 絕望卡 where the
    table and the cards say 歹徒 and 絕境."""
    from tui.overlord.words import effect_str, role_str

    zh, en = t("help.game.overlord", "zh"), t("help.game.overlord", "en")
    assert role_str("outlaw", "zh") == "歹徒" and "（農夫、歹徒）" in zh and "亡命徒" not in zh
    assert effect_str("revenge", "zh").startswith("絕境") and "「絕境」卡" in zh and "絕望" not in zh
    assert "抽 2 張牌" in zh and "補牌到手牌上限" not in zh and "每輪" not in zh
    assert "draw 2 cards" in en and "up to your hand limit" not in en


def test_a_coercion_card_given_is_one_line_to_its_giver_and_taker() -> None:
    """K-CARD Coercion: the giver read "bob (2, you) gives Bot 2 (2) a card."
    and then "bob (2, you) gives Bot 2 (2) [Revolt].": the public line is left
    out for the two who see the card; everyone else keeps it."""
    from engine.overlord.views import Event
    from tui.overlord.words import restated

    given = Event(n=1, round=1, kind="give-card", params={"src": 1, "dst": 2})
    assert restated(given, 1) and restated(given, 2)
    assert not restated(given, 0) and not restated(given, None)  # another player, a spectator
    gold = Event(n=2, round=1, kind="gold", params={"seat": 1, "delta": 2, "why": "gift"})
    assert restated(gold, 0) and restated(gold)


def test_a_knight_s_protection_from_a_role_is_said_in_the_log() -> None:
    """K-ROLE-KNIGHT: the Captain's discard and the Tax Collector's fee skip the
    Knight; the log said nothing, and players could not tell a rule from a slip."""
    from engine.overlord.views import Event
    from tui.overlord.words import Namer, event_text

    names = ["alice", "bob", "carol", "dave"]
    captain = Event(n=1, round=1, kind="protected", params={"seat": 3, "role": "captain"})
    fee = Event(n=2, round=1, kind="protected", params={"seat": 1, "role": "taxcollector"})
    assert event_text(captain, Namer(names, 0, "en"), "en").plain == "dave (4) has the Knight's protection: the Captain's power takes nothing."
    # said to the Knight himself: no "him" after "you" ("你……拿不走他的東西" mixed the two)
    assert event_text(fee, Namer(names, 1, "zh"), "zh").plain == "你（2）受騎士保護：財稅官的能力什麼也拿不走。"
    assert event_text(fee, Namer(names, 1, "en"), "en").plain == "bob (2, you) has the Knight's protection: the Tax Collector's power takes nothing."


def test_a_round_limit_tie_says_the_rank_decided_it() -> None:
    """K-END-2: "wins: round limit, most gold" read wrong when another had as much gold."""
    from engine.overlord.views import Event, Outcome
    from tui.overlord.words import Namer, event_text, outcome_reason

    assert outcome_reason(Outcome(winner=1, reason="round-limit", gold=[5, 14, 14, 3]), "zh") == "局數上限，金錢同額時階級高者勝"
    assert outcome_reason(Outcome(winner=1, reason="round-limit", gold=[5, 14, 13, 3]), "en") == "round limit, most gold"
    assert outcome_reason(Outcome(winner=1, reason="coronation", gold=[5, 40, 40, 3]), "en") == "coronation"
    names = ["alice", "bob", "carol", "dave"]
    ev = Event(n=9, round=3, kind="game-over", params={"winner": 1, "why": "round-limit", "tie": True})
    assert "tied on gold: the higher rank wins" in event_text(ev, Namer(names, 0, "en"), "en").plain


def test_the_help_says_what_the_rules_say() -> None:
    """A play-tester read the help against the rules: S-REACT-2 asks every
    *other* living seat; S-SCORE-1 scores the Vizier and the Fortune Teller by
    their own rules; S-SWAP-3's swap-back ban was not said anywhere; K-ROLE-
    GENERAL / -PEASANT / K-XROLE-OUTLAW pass to any *other* living player;
    K-CARD-REVENGE's Plead Guilty case and K-CARD-CONSPIRE's Knight were left out."""
    from tui.overlord.catalogue import EFFECT_EN, EFFECT_ZH, ROLE_RULES_EN, ROLE_RULES_ZH

    for lang in ("en", "zh"):
        text = t("help.game.sultans", lang)
        assert ("every other living seat" if lang == "en" else "其他所有存活玩家") in text
        assert ("may not swap with that seat" if lang == "en" else "不能與他交換") in text
        assert ("Fortune Teller by their own" if lang == "en" else "大官和占卜師依各自") in text
    for role in ("general", "peasant", "outlaw"):
        assert "any other living player" in ROLE_RULES_EN[role] and "其他活著的玩家" in ROLE_RULES_ZH[role]
    assert "Plead Guilty" in EFFECT_EN["revenge"] and "認罪" in EFFECT_ZH["revenge"]
    assert "Knight" in EFFECT_EN["conspire"] and "騎士" in EFFECT_ZH["conspire"]


def test_the_lobby_s_help_uses_the_table_s_words() -> None:
    """A newcomer read 號召革命, 稱王 and 中央角色卡 in the lobby's help and found
    none of them at the table, which says 登高一呼, 宣示王權 and 中央牌 (as the
    seed rules do)."""
    help_zh = t("help.game.sultans", "zh")
    for word in ("sk.key.revolt", "sk.key.claim", "sk.spare"):
        assert t(word, "zh") in help_zh, word
    for old in ("號召革命", "稱王", "中央角色卡"):
        assert old not in help_zh
    assert "n" in help_zh.split("不回應")[-1] and "(o, or n" in t("help.game.sultans", "en")


def test_chinese_says_ju_for_a_round_and_huihe_for_a_turn_in_both_games() -> None:
    """Issue 44 item 13: 回合 meant a round in Kill the Overlord (第 12/30 回合,
    回合上限) and a turn in the same dialog (回合計時) and in Sultans of Karaya.
    As the Sultans seed has it (每一局 a round, 進行回合 a turn): a round is 局
    and a turn 回合, in both games, their dialogs, logs and help."""
    from tui.overlord import catalogue

    zh = {**ZH, **{f"ov:{k}": v for k, v in catalogue.ROLE_RULES_ZH.items()}}
    en = {**EN, **{f"ov:{k}": v for k, v in catalogue.ROLE_RULES_EN.items()}}
    rounds = {k for k, v in en.items() if re.search(r"\brounds?\b", v, re.I) and not re.search(r"came round", v)}
    turns = {k for k, v in en.items() if re.search(r"\bturns?\b", v, re.I)}
    assert {k: zh[k] for k in rounds - turns if "回合" in zh[k] or "輪數" in zh[k]} == {}
    assert {k: zh[k] for k in turns - rounds if "局" in re.sub("每局|本局|這局|一局|上局", "", zh[k])} == {}  # (a turn of "this round")
    assert t("ov.head.round", "zh", n=12, of=30) == "第 12/30 局"
    assert t("overlord.opt.round_limit", "zh") == "局數上限" and t("field.turn_timer", "zh").startswith("回合計時")
    assert t("sk.head.turn", "zh", n=3, limit=200) == "回合 3/200"
