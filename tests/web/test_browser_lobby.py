"""The lobby and the page itself: static files served by ``mount_web``, sign-in with
the token kept in sessionStorage, the table list, joining and leaving a table.
"""

from __future__ import annotations

from typing import Any

import httpx
from web_harness import LiveServer, Player


def test_page_and_assets_are_served(server: LiveServer) -> None:
    page = httpx.get(server.url + "/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in page.text
    for asset, kind in [
        ("app.js", "javascript"),
        ("i18n.js", "javascript"),
        ("cards.js", "javascript"),
        ("style.css", "text/css"),
        ("favicon.svg", "image/svg+xml"),
    ]:
        r = httpx.get(f"{server.url}/static/{asset}")
        assert r.status_code == 200, asset
        assert kind in r.headers["content-type"], (asset, r.headers["content-type"])
    assert httpx.get(server.url + "/static/nope.js").status_code == 404
    assert httpx.get(server.url + "/static/../app.py").status_code == 404
    # The API is still there.
    assert [t["id"] for t in httpx.get(server.url + "/api/tables").json()] == [
        "live-1",
        "casino-1",
    ]


def test_sign_in_tables_join_and_leave(new_player: Any) -> None:
    p: Player = new_player()
    p.open()
    cards = p.loc(".table-card")
    p.expect(cards).to_have_count(2)
    live = p.loc(".table-card[data-table='live-1']")
    p.expect(live.locator("h3")).to_have_text("Live Ultimate Texas Hold'em")
    p.expect(live.locator(".preset")).to_have_text("Live table: one shared hand, unlimited players")
    p.expect(live.locator(".table-facts")).to_have_text("Ante5 – 1,000Trips5 – 100")
    p.expect(live.locator(".players")).to_have_text("Players: 0")
    p.expect(live.locator(".phase")).to_have_text("Betting open")
    casino = p.loc(".table-card[data-table='casino-1']")
    p.expect(casino.locator(".players")).to_have_text("Players: 0 of 7")
    # Joining needs a name first.
    p.expect(p.loc("[data-join='live-1']")).to_be_disabled()
    p.expect(p.loc("#lobby-pick")).to_have_text("Sign in, then pick a table to sit at.")

    p.page.fill("#signin-name", "  Ann  ")
    p.page.keyboard.press("Enter")
    p.expect(p.loc("#me-name")).to_have_text("Ann")
    p.expect(p.loc("#me-balance")).to_have_text("1,000")
    p.expect(p.loc("#who-name")).to_have_text("Ann")
    token = p.page.evaluate("() => sessionStorage.getItem('uth.token')")
    assert isinstance(token, str) and len(token) > 20

    # A reload keeps the player signed in (same tab).
    p.page.reload()
    p.expect(p.loc("#me-name")).to_have_text("Ann")
    p.join("live-1")
    p.expect(p.loc("#t-name")).to_have_text("Live Ultimate Texas Hold'em")
    p.expect(p.loc("#t-game")).to_have_text("20261129-233015-0001")
    p.expect_balance("1,000")
    assert p.page.url.endswith("#/table/live-1")
    p.expect(p.loc("#player-label")).to_have_text("Player's hand (shared by every player)")
    p.expect(p.loc("#spot-bad_beat")).to_be_hidden()  # not offered by the live rules

    # A reload at the table comes back to the table.
    p.page.reload()
    p.expect(p.loc("#view-table")).to_have_attribute("data-connected", "true")
    p.expect(p.loc("#t-name")).to_have_text("Live Ultimate Texas Hold'em")

    # Rules: pay tables from the table's rule set.
    p.loc("#btn-rules").click()
    p.expect(p.loc("#pays-blind [data-cat='royal_flush'] td")).to_have_text("500:1")
    p.expect(p.loc("#pays-blind [data-cat='flush'] td")).to_have_text("3:2")
    p.expect(p.loc("#pays-trips [data-cat='three_of_a_kind'] td")).to_have_text("3:1")
    p.expect(p.loc("#pays-bad-beat")).to_have_count(0)
    # The return to player of the table's rule set, from the exact analysis.
    p.expect(p.loc("#rtp")).to_have_text(
        "With perfect play: 99.47% of the total bet, 97.82% of the Ante"
        " (house edge 2.185% of the Ante). Trips: 96.50%."
    )
    # A fold comes only at the river, before any Play bet (no "loses ... Play").
    p.expect(p.loc("#rules-body")).to_contain_text(
        "You can fold only at the river, so a folded hand has no Play bet: it loses the Ante"
        " and the Blind; its Trips bet still has action, on your best hand."
    )
    p.expect(p.loc("#rules-body")).not_to_contain_text("Blind and Play;")
    # No typed figure: the only percentages are the analysis's, in #rtp.
    rules_text = p.loc("#rules-body").inner_text()
    assert "%" not in rules_text.replace(p.loc("#rtp").inner_text(), "")
    p.loc("#dlg-rules .dialog-close").click()
    p.expect(p.loc("#dlg-rules")).to_be_hidden()

    # Keys dialog with "?".
    p.page.keyboard.press("Shift+Slash")
    p.expect(p.loc("#dlg-keys")).to_be_visible()
    p.expect(p.loc("#keys-body")).to_contain_text("Undo the last bet")
    p.page.keyboard.press("Escape")

    # Back to the lobby, then sign out.
    p.loc("#btn-lobby").click()
    p.expect(p.loc("#view-lobby")).to_be_visible()
    p.loc("#sign-out").click()
    p.expect(p.loc("#signin-form")).to_be_visible()
    assert p.page.evaluate("() => sessionStorage.getItem('uth.token')") is None
    # A table URL without a player goes to the lobby.
    p.page.goto(p.server.url + "/#/table/live-1")
    p.expect(p.loc("#view-lobby")).to_be_visible()
    assert p.console_errors == []


def test_unknown_table_goes_back_to_the_lobby(new_player: Any) -> None:
    p: Player = new_player()
    p.sign_in("Ann")
    p.page.goto(p.server.url + "/#/table/no-such-table")
    p.expect(p.loc("#view-lobby")).to_be_visible()
    p.expect(p.loc(".toast").last).to_have_text("There is no such table.")
