"""English and Russian: the same keys in both dictionaries, every key the code uses
exists, and once switched to Russian no visible text of the page is left in English.

"Visible text" is every text node on screen (SVG card ranks included), the page title
and input placeholders, outside elements marked ``translate="no"``: names that are
data (players, tables, game numbers) and the language switch, whose names are
written in their own language.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from web_harness import LATIN, Player, visible_texts

WEB = Path(__file__).resolve().parents[2] / "src" / "uth" / "web"


def _keys(p: Player) -> dict[str, list[str]]:
    keys: dict[str, list[str]] = p.page.evaluate(
        """async () => {
        const m = await import('/static/i18n.js');
        const out = {};
        for (const [lang, dict] of Object.entries(m.DICTIONARIES)) out[lang] = Object.keys(dict);
        return out;
    }"""
    )
    return keys


def test_dictionaries_have_the_same_keys_and_cover_the_code(new_player: Any) -> None:
    p: Player = new_player()
    p.open()
    keys = _keys(p)
    assert sorted(keys) == ["en", "ru"]
    assert sorted(keys["en"]) == sorted(keys["ru"])
    empty = p.page.evaluate(
        """async () => {
        const m = await import('/static/i18n.js');
        return Object.entries(m.DICTIONARIES).flatMap(([l, d]) =>
            Object.entries(d).filter(([, v]) => !String(v).trim()).map(([k]) => `${l}:${k}`));
    }"""
    )
    assert empty == []
    # Every literal key in the code and in index.html is in the dictionaries.
    used: set[str] = set()
    for path in [*WEB.glob("static/*.js"), WEB / "index.html"]:
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"\bt\('([a-z_.0-9-]+)'", text))
        used |= set(re.findall(r"data-i18n(?:-[a-z]+)?=\"([a-z_.0-9-]+)\"", text))
        used |= set(re.findall(r"'(key\.[a-z_0-9]+)'", text))
    missing = sorted(used - set(keys["en"]))
    assert missing == []


def test_card_indices_in_every_language(new_player: Any) -> None:
    """Cards show 2-10, J, Q, K, A in every language: the ten is "10" (never the
    notation's "T"), and no Russian "Т" (туз, the ace) that reads as a ten. Screen
    readers hear the rank's name in the page's language.
    """
    p: Player = new_player()
    p.open()
    script = """async () => {
        const m = await import('/static/cards.js');
        return ['Td', 'As', 'Kh', 'Qc', 'Jd', '9s'].map((c) => {
            const svg = m.cardSvg(c);
            return [svg.querySelector('text').textContent, svg.getAttribute('aria-label'),
                    svg.getAttribute('translate')];
        });
    }"""
    shown = ["10", "A", "K", "Q", "J", "9"]
    english = p.page.evaluate(script)
    assert [c[0] for c in english] == shown
    assert [c[1] for c in english] == [
        "10 of diamonds",
        "Ace of spades",
        "King of hearts",
        "Queen of clubs",
        "Jack of diamonds",
        "9 of spades",
    ]
    assert {c[2] for c in english} == {"no"}
    _switch(p, "ru")
    russian = p.page.evaluate(script)
    assert [c[0] for c in russian] == shown
    assert [c[1] for c in russian] == [
        "10 бубен",
        "Туз пик",
        "Король червей",
        "Дама треф",
        "Валет бубен",
        "9 пик",
    ]


def _check_russian(p: Player, where: str, english: set[str]) -> None:
    texts = visible_texts(p.page)
    assert texts, where
    latin = [t for t in texts if LATIN.search(t)]
    assert latin == [], f"{where}: English left on the Russian page: {latin}"
    same = [t for t in texts if t in english and re.search(r"[^\W\d_]", t)]
    assert same == [], f"{where}: untranslated (same as English): {same}"


def _switch(p: Player, lang: str) -> None:
    p.loc(f".lang-btn[data-lang='{lang}']").click()
    p.expect(p.loc("html")).to_have_attribute("lang", lang)


def test_russian_everywhere(new_player: Any) -> None:
    p: Player = new_player()
    p.open()
    english: set[str] = set(visible_texts(p.page))
    _switch(p, "ru")
    _check_russian(p, "lobby, signed out", english)
    p.page.fill("#signin-name", "Анна")
    p.page.click("#signin-btn")
    p.expect(p.loc("#me-name")).to_have_text("Анна")
    p.expect(p.loc("#signin-btn")).to_be_hidden()
    _check_russian(p, "lobby", english)

    p.join("live-1")
    p.wait_betting()
    p.expect(p.loc("#light-status")).to_have_text("Делайте ставки")
    p.bet("ante", 100, times=4)  # 800 of 1,000 with the Blind: the warning shows
    p.bet("trips", 100)
    p.expect(p.loc("#spot-trips .spot-max")).to_be_visible()
    p.expect(p.loc("#warning")).to_be_visible()
    _check_russian(p, "betting", english)
    _switch(p, "en")
    english |= set(visible_texts(p.page))
    _switch(p, "ru")

    p.close_betting()
    p.expect_decision("check")
    p.expect(p.loc("#decision h2")).to_have_text("Примите решение")
    p.expect(p.loc("#decision-buttons [data-action='check']")).to_contain_text("ЧЕК")
    _check_russian(p, "decision", english)
    p.server.advance(10)
    p.expect(p.loc("#auto-notice")).to_have_text("АВТОЧЕК")
    _check_russian(p, "auto check", english)
    p.decide("check")
    p.decide("fold")
    p.expect(p.loc("#announcement")).to_have_text("У дилера пара, квалифицируется")
    p.expect(p.loc("#result")).to_be_visible()
    p.expect(p.loc("#dealer-cards .card-back")).to_have_count(0)
    _check_russian(p, "showdown", english)
    # The result panel beside the felt holds its Russian table: nothing cut off.
    assert p.page.evaluate(
        "() => [...document.querySelectorAll('#result, #result *')]"
        ".every((e) => e.scrollWidth <= e.clientWidth + 1)"
    )
    _switch(p, "en")
    p.expect(p.loc("#announcement")).to_have_text("Dealer has a pair, qualifies")
    english |= set(visible_texts(p.page))
    _switch(p, "ru")
    _check_russian(p, "showdown again", english)

    for button, dialog in [("#btn-rules", "#dlg-rules"), ("#btn-keys", "#dlg-keys")]:
        for lang in ("en", "ru"):
            _switch(p, lang)
            p.loc(button).click()
            p.expect(p.loc(dialog)).to_be_visible()
            if lang == "en":
                english |= set(visible_texts(p.page))
            else:
                _check_russian(p, dialog, english)
            p.page.keyboard.press("Escape")
            p.expect(p.loc(dialog)).to_be_hidden()
    p.expect(p.loc("#rtp")).to_have_text(
        "При оптимальной игре: 99.47% от общей ставки, 97.82% от анте"
        " (преимущество казино 2.185% от анте). Трипс: 96.50%."
    )
    p.loc("#btn-rules").click()
    p.expect(p.loc("#rules-body")).to_contain_text(
        "у сброшенной руки нет ставки Игра: она теряет Анте и Блайнд; ставка Трипс при этом играет"
    )
    p.page.keyboard.press("Escape")
    p.loc("#btn-history").click()
    p.expect(p.loc("#history-body tbody tr")).to_have_count(1)
    _check_russian(p, "history", english)
    p.loc("#history-body tbody tr button").click()
    p.expect(p.loc("#history-body .round-detail")).to_be_visible()
    _check_russian(p, "history detail", english)
    p.expect(p.loc("#history-body .detail-decisions")).to_contain_text("АВТОЧЕК → ЧЕК → ПАС")
    p.page.keyboard.press("Escape")

    # The choice is remembered: a reload stays in Russian (and signed in).
    p.page.reload()
    p.expect(p.loc("body")).to_have_attribute("data-ready", "true")
    p.expect(p.loc("html")).to_have_attribute("lang", "ru")
    p.expect(p.loc("#view-table")).to_be_visible()
    assert p.console_errors == []
