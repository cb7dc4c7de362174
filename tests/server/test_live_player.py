"""The player's side of the live table (issue 7, items 11, 13, 15, 16, 17).

- ``leave`` (the page hidden or closed) while betting with bets declines them,
  and the player is told why (004's note).
- The snapshot carries the last round's result until the next window; the last
  bets (Repeat) survive reloads and restarts; declined bets are announced.
- Every connection of a player gets the new state at once.
- A name belongs to one account; names are normalised and checked.
- Hands are named while deciding.

Seed 6, round 1: player hand 8s Qs, dealer 3c Js, board Jh Qc 7h 9c Tc.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import LIVE_TABLE, live_server


def test_leave_while_betting_declines_the_bets_and_says_why(store_url: str, tmp_path: Path) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            nothing = a.ok("leave", reason="hidden")
            assert (nothing["declined"], nothing["state"]["balance"]) == (False, 1000)
            a.ok("place_bet", spot="ante", amount=10)
            a.ok("place_bet", spot="trips", amount=5)
            left = a.ok("leave", reason="hidden")
            assert left["declined"] is True
            assert (left["state"]["bets"], left["state"]["balance"], left["state"]["can_undo"]) == (
                {"ante": 0, "trips": 0, "bad_beat": 0, "blind": 0, "play": 0},
                1000,
                False,
            )
            declined = a.recv_until("bets_declined")
            assert declined == {
                "type": "bets_declined",
                "game_number": a.snapshot["game_number"],
                "code": "hidden",
                "reason": "hidden: the page was hidden while betting was open; "
                "the bets were declined and refunded (004)",
            }
            # Back on the page, the player may bet again in the same window.
            a.ok("place_bet", spot="ante", amount=5)
            srv.advance_to(a.snapshot)
            a.recv_until("decision_required")
            # After the red light the bets stand: leave changes nothing.
            assert a.ok("leave", reason="closed")["declined"] is False
            assert a.ok("snapshot")["state"]["bets"]["ante"] == 5
        assert [(e["kind"], e["wager"], e["amount"]) for e in srv.assert_consistent(alice)] == [
            ("signup", None, 1000),
            ("wager", "ante", -5),
            ("wager", "blind", -5),
        ]


def test_a_second_connection_gets_each_new_state_at_once(store_url: str, tmp_path: Path) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a, srv.connect(alice) as tab2:
            placed = a.ok("place_bet", spot="ante", amount=25)
            update = tab2.recv_until("state")
            assert update == {"type": "state", "state": placed["state"]}
            assert (update["state"]["balance"], update["state"]["bets"]["ante"]) == (950, 25)
            undone = tab2.ok("undo")
            assert a.recv_until("state") == {"type": "state", "state": undone["state"]}
            assert undone["state"]["balance"] == 1000
            # A refused command changes nothing and updates nobody.
            tab2.cmd("undo")
            a.ok("snapshot")
            assert [m["type"] for m in a.log].count("state") == 1


def test_a_connection_at_another_table_sees_the_balance_change(tmp_path: Path) -> None:
    casino = {"id": "c1", "rules": "casino", "betting_seconds": 10, "yellow_seconds": 3}
    url = f"sqlite:///{tmp_path / 'uth.db'}"
    with live_server(url, tmp_path, tables=[LIVE_TABLE, casino]) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice, "t1") as a, srv.connect(alice, "c1") as c:
            a.ok("place_bet", spot="ante", amount=100)
            update = c.recv_until("state")
            assert (update["state"]["balance"], update["state"]["bets"]["ante"]) == (800, 0)
            assert c.ok("snapshot")["state"]["balance"] == 800


def test_the_last_result_stays_in_the_snapshot_until_the_next_window(
    store_url: str, tmp_path: Path
) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice, bob = srv.sign_in("alice"), srv.sign_in("bob")
        with srv.connect(alice) as a, srv.connect(bob):
            a.ok("place_bet", spot="ante", amount=10)
            srv.advance_to(a.snapshot)
            a.recv_until("decision_required")
            a.ok("decide", action="play_4x")
            settled = a.recv_until("settlement")
            assert settled["net"] == 60
            pause = a.recv_until("pause")
        # A reload at the showdown: the result is in the new snapshot.
        with srv.connect(alice) as a:
            assert a.snapshot["last_result"] == settled
            assert a.snapshot["last_bets"] == {"ante": 10, "trips": 0, "bad_beat": 0}
            srv.advance_to(pause)
            a.recv_until("betting_open")
            assert a.ok("snapshot")["snapshot"]["last_result"] is None
        with srv.connect(bob) as b2:  # bob had no hand
            assert b2.snapshot["last_result"] is None
            assert b2.snapshot["last_bets"] is None


def test_repeat_survives_a_server_restart(store_url: str, tmp_path: Path) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            a.ok("place_bet", spot="ante", amount=10)
            a.ok("place_bet", spot="trips", amount=5)
            srv.advance_to(a.snapshot)
            a.recv_until("decision_required")
            a.ok("decide", action="check")
            srv.advance_to(a.recv_until("decision_required"))
            srv.advance_to(a.recv_until("decision_required"))
            balance = a.recv_until("settlement")["balance"]
    with live_server(store_url, tmp_path) as srv, srv.connect(alice) as a:
        assert a.snapshot["last_bets"] == {"ante": 10, "trips": 5, "bad_beat": 0}
        assert a.snapshot["state"]["can_repeat"] is True
        state = a.ok("repeat")["state"]
        assert (state["bets"]["ante"], state["bets"]["trips"], state["balance"]) == (
            10,
            5,
            balance - 25,
        )


def test_bets_declined_while_away_are_announced_on_reconnect(
    store_url: str, tmp_path: Path
) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            a.ok("place_bet", spot="ante", amount=10)
            game = a.snapshot["game_number"]
        with srv.connect(alice) as a:
            assert a.snapshot["state"]["bets"]["ante"] == 0
            assert a.recv() == {
                "type": "bets_declined",
                "game_number": game,
                "code": "left",
                "reason": "left: your last connection closed while betting was open; "
                "the bets were declined and refunded (004)",
            }
        with srv.connect(alice) as a:  # told once
            a.ok("snapshot")
            assert "bets_declined" not in [m["type"] for m in a.log]
        assert srv.me(alice) == 1000


def test_hands_are_named_while_deciding(store_url: str, tmp_path: Path) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            a.ok("place_bet", spot="ante", amount=10)
            srv.advance_to(a.snapshot)
            pre = a.recv_until("decision_required")
            assert pre["hand"] == {"category": "high_card", "cards": ["Qs", "8s"]}
            state = a.ok("decide", action="check")["state"]
            assert state["hand"] == {"category": "high_card", "cards": ["Qs", "8s"]}
            flop = a.recv_until("decision_required")
            assert flop["hand"] == {"category": "pair", "cards": ["Qs", "Qc", "Jh", "8s", "7h"]}
            a.ok("decide", action="check")
            river = a.recv_until("decision_required")
            assert river["hand"] == {
                "category": "straight",
                "cards": ["Qs", "Jh", "Tc", "9c", "8s"],
            }
            a.ok("decide", action="play_1x")
            dealer = a.recv_until("dealer_revealed")
            assert (dealer["category"], dealer["best_five"], dealer["announcement"]) == (
                "pair",
                ["Js", "Jh", "Qc", "Tc", "9c"],
                "Dealer has a pair, qualifies",
            )


def test_a_name_belongs_to_one_account(store_url: str, tmp_path: Path) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            a.ok("place_bet", spot="ante", amount=10)
        srv.client.post(
            f"/api/operator/players/{alice.id}/adjust",
            json={"amount": 250, "reason": "bonus"},
            headers={"Authorization": "Bearer operator-token-for-tests-0123456789"},
        )
        taken = srv.client.post("/api/players", json={"name": "alice"})
        assert taken.status_code == 409
        assert taken.json()["error"] == {
            "code": "name_taken",
            "message": "name: 'alice' belongs to another account; sign in with its token "
            "(kept by the browser that created it) or choose another name",
            "field": "name",
        }
        # NFKC: fullwidth letters are the same name.
        assert srv.client.post("/api/players", json={"name": "ａｌｉｃｅ"}).status_code == 409
        back = srv.client.post("/api/players", json={"name": " alice ", "token": alice.token})
        assert back.status_code == 200
        assert back.json() == {
            "player": {"id": alice.id, "name": "alice", "balance": 1250},
            "token": alice.token,
        }
        bob = srv.sign_in("bob")
        stolen = srv.client.post("/api/players", json={"name": "alice", "token": bob.token})
        assert stolen.status_code == 409
        # A new name with a token the client chose: a fresh token is issued.
        dave = srv.client.post("/api/players", json={"name": "dave", "token": "chosen-by-me"})
        assert dave.status_code == 201
        assert dave.json()["token"] not in ("chosen-by-me", alice.token, bob.token)
        assert len(dave.json()["token"]) == 43
        other = srv.client.post("/api/players", json={"name": "Alice"})
        assert other.status_code == 201 and other.json()["player"]["id"] not in (alice.id, bob.id)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "name: must not be blank (got '')"),
        ("   ", "name: must not be blank (got '   ')"),
        ("x" * 21, f"name: at most 20 characters, got 21 (got {'x' * 21!r})"),
        ("a\u200bb", "name: no control or invisible characters, got U+200B (got 'a\\u200bb')"),
        ("\u202eevil", "name: no control or invisible characters, got U+202E (got '\\u202eevil')"),
        ("tab\there", "name: no control or invisible characters, got U+0009 (got 'tab\\there')"),
    ],
)
def test_bad_names_are_refused_naming_the_field(name: str, message: str, tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'uth.db'}", tmp_path) as srv:
        r = srv.client.post("/api/players", json={"name": name})
        assert r.status_code == 422
        assert r.json()["error"] == {"code": "invalid_request", "message": message, "field": "name"}


def test_the_longest_name_is_taken_normalised(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'uth.db'}", tmp_path) as srv:
        r = srv.client.post("/api/players", json={"name": "  Ｗ" + "é" * 19 + " "})
        assert r.status_code == 201
        assert r.json()["player"]["name"] == "W" + "é" * 19
