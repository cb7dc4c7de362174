"""Complete rounds through the real WebSocket endpoint, on SQLite and PostgreSQL.

Seed 6 deals, on the live table (one player hand face up for everyone, 004):

- round 1: player hand 8s Qs, dealer 3c Js, board Jh Qc 7h 9c Tc: the player
  has a queen-high straight, the dealer a pair of jacks (qualifies);
- round 2: player hand 5s 8s, dealer 9d Ts, board 8d Th 2s 2d Jc: eights and
  twos lose to the dealer's tens and twos;
- round 3: player hand 2c Tc, dealer 2h 2s, board Qc Jc 4d 7c Qs: a queen-high
  flush against queens and twos.

Every balance, settlement message and ledger entry below is exact, and every
balance equals the sum of its ledger entries.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers import (
    GAME_NUMBER,
    Conn,
    LiveServer,
    decks,
    entries_of,
    live_server,
)


def _wagers(**kw: tuple[Any, str, Any]) -> dict[str, dict[str, Any]]:
    out = {k: {"stake": 0, "result": "no_action", "net": 0} for k in WAGER_KINDS}
    for kind, (stake, result, net) in kw.items():
        out[kind] = {"stake": stake, "result": result, "net": net}
    return out


WAGER_KINDS = ("ante", "blind", "play", "trips", "bad_beat")


def _street(srv: LiveServer, conns: list[Conn], street: str, legal: list[str]) -> dict[str, Any]:
    """Every connection in ``conns`` is asked to decide on ``street``."""
    required = {}
    for c in conns:
        m = c.recv_until("decision_required")
        assert m["street"] == street, m
        assert m["legal_actions"] == legal, m
        required[c.name] = m
    return next(iter(required.values()))


def test_three_rounds_with_three_players(store_url: str, tmp_path: Path) -> None:
    deck1, deck2, deck3 = decks(6, 3)
    assert deck1[:9] == ("8s", "Qs", "3c", "Js", "Jh", "Qc", "7h", "9c", "Tc")
    assert deck2[:9] == ("5s", "8s", "9d", "Ts", "8d", "Th", "2s", "2d", "Jc")
    assert deck3[:9] == ("2c", "Tc", "2h", "2s", "Qc", "Jc", "4d", "7c", "Qs")

    with live_server(store_url, tmp_path, seed=6) as srv:
        alice, bob, carol = srv.sign_in("alice"), srv.sign_in("bob"), srv.sign_in("carol")
        with srv.connect(alice) as a, srv.connect(bob) as b:
            # ---------------------------------------------------------- round 1
            with srv.connect(carol) as c:
                gn1 = a.snapshot["game_number"]
                assert gn1 == "20261129-233015-0001"
                assert a.snapshot["phase"] == "betting" and a.snapshot["light"] == "green"
                assert a.snapshot["state"]["balance"] == 1000

                r = a.ok("place_bet", spot="ante", amount=10)
                assert r["state"]["bets"] == {
                    "ante": 10,
                    "blind": 10,
                    "trips": 0,
                    "bad_beat": 0,
                    "play": 0,
                }
                assert r["state"]["balance"] == 980
                r = a.ok("place_bet", spot="trips", amount="5")
                assert r["state"]["balance"] == 975 and r["state"]["total_bet"] == 25
                b.ok("place_bet", spot="ante", amount=10)
                assert b.ok("place_bet", spot="trips", amount=5)["state"]["balance"] == 975
                assert c.ok("place_bet", spot="ante", amount=5)["state"]["balance"] == 990
                assert srv.me(alice) == 975  # the balance available to bet

                srv.advance_to(a.snapshot)  # betting closes: yellow, red, deal
                for conn in (a, b, c):
                    assert conn.recv_until("light")["light"] == "yellow"
                    assert conn.recv_until("light")["light"] == "red"
                    closed = conn.recv_until("betting_closed")
                    assert closed["game_number"] == gn1
                    assert (closed["hands"], closed["in_round"]) == (3, True)
                    assert conn.recv_until("player_hand_dealt")["cards"] == ["8s", "Qs"]
                pre = _street(srv, [a, b, c], "pre_flop", ["play_4x", "play_3x", "check"])

                r = a.ok("decide", action="play_4x")
                assert r["state"]["bets"]["play"] == 40
                assert r["state"]["balance"] == 935
                assert r["state"]["total_bet"] == 65
                assert r["state"]["decisions"] == ["play_4x"]
                assert r["state"]["legal_actions"] == []
                b.ok("decide", action="check")
                srv.advance_to(pre)  # carol's time runs out: AUTO CHECKED
                auto = c.recv_until("decision")
                assert (auto["street"], auto["action"], auto["auto"]) == ("pre_flop", "check", True)
                for conn in (a, b, c):
                    assert conn.recv_until("flop_turned")["cards"] == ["Jh", "Qc", "7h"]
                flop = _street(srv, [b, c], "flop", ["play_2x", "check"])
                b.ok("decide", action="check")
                srv.advance_to(flop)
                auto = c.recv_until("decision")
                assert (auto["street"], auto["action"], auto["auto"]) == ("flop", "check", True)
                for conn in (a, b, c):
                    assert conn.recv_until("turn_and_river_turned")["cards"] == ["9c", "Tc"]
                river = _street(srv, [b, c], "river", ["play_1x", "fold"])
                b.ok("decide", action="fold")
                # RULES.md step 7: a folded hand is collected at the fold, before the
                # dealer's cards are shown
                assert b.recv_until("hand_folded")["player"] == str(bob.id)
                srv.advance_to(river)  # carol: AUTO FOLDED
                auto = c.recv_until("decision")
                assert (auto["street"], auto["action"], auto["auto"]) == ("river", "fold", True)

                for conn in (a, b, c):
                    shown = conn.recv_until("dealer_revealed")
                    assert shown["cards"] == ["3c", "Js"]
                    assert shown["category"] == "pair" and shown["qualifies"] is True
                    assert shown["announcement"] == "Dealer has a pair, qualifies"
                assert a.recv_until("hand_shown")["outcome"] == "win"
                s = a.recv_until("settlement")
                assert s["game_number"] == gn1
                assert (s["outcome"], s["category"], s["net"], s["balance"]) == (
                    "win",
                    "straight",
                    80,
                    1080,
                )
                assert s["wagers"] == _wagers(
                    ante=(10, "win", 10),
                    blind=(10, "win", 10),  # a straight: Blind 1:1
                    play=(40, "win", 40),
                    trips=(5, "win", 20),  # a straight: Trips 4:1
                )
                s = b.recv_until("settlement")
                assert (s["outcome"], s["net"], s["balance"]) == ("fold", 0, 1000)
                assert s["wagers"] == _wagers(
                    ante=(10, "lose", -10),
                    blind=(10, "lose", -10),
                    trips=(5, "win", 20),  # a folded hand's Trips still has action (004)
                )
                s = c.recv_until("settlement")
                assert (s["outcome"], s["net"], s["balance"]) == ("fold", -10, 990)
                assert s["wagers"] == _wagers(ante=(5, "lose", -5), blind=(5, "lose", -5))
                pause = a.recv_until("pause")

                # ------------------------------------------------------ round 2
                srv.advance_to(pause)
                opened = a.recv_until("betting_open")
                gn2 = opened["game_number"]
                assert gn2 == "20261129-233057-0002"
                assert c.recv_until("betting_open")["game_number"] == gn2
                # Carol bets, then disconnects while betting is open: declined, refunded.
                assert c.ok("place_bet", spot="ante", amount=10)["state"]["balance"] == 970
            assert srv.me(carol) == 990

            # Repeat, Double, Double again (refused), Undo, Double.
            r = a.ok("repeat")
            assert (r["state"]["bets"]["ante"], r["state"]["bets"]["trips"]) == (10, 5)
            assert r["state"]["balance"] == 1055
            assert (r["state"]["can_double"], r["state"]["can_repeat"]) == (True, False)
            r = a.ok("double")
            assert (r["state"]["bets"]["ante"], r["state"]["bets"]["trips"]) == (20, 10)
            assert r["state"]["balance"] == 1030 and r["state"]["can_double"] is False
            assert a.cmd("double")["code"] == "wrong_phase"  # once per round
            r = a.ok("undo")
            assert (r["state"]["bets"]["ante"], r["state"]["bets"]["trips"]) == (10, 5)
            assert r["state"]["balance"] == 1055 and r["state"]["can_double"] is True
            r = a.ok("double")
            assert (r["state"]["bets"]["ante"], r["state"]["bets"]["trips"]) == (20, 10)
            # Bob: 25, then 5 more, then Undo takes the last chip away.
            b.ok("place_bet", spot="ante", amount=25)
            assert b.ok("place_bet", spot="ante", amount=5)["state"]["bets"]["ante"] == 30
            r = b.ok("undo")
            assert r["state"]["bets"]["ante"] == 25 and r["state"]["balance"] == 950
            assert b.cmd("repeat")["code"] == "wrong_phase"  # bets already placed

            srv.advance_to(opened)
            for conn in (a, b):
                closed = conn.recv_until("betting_closed")
                assert (closed["hands"], closed["in_round"]) == (2, True)  # carol left
                assert conn.recv_until("player_hand_dealt")["cards"] == ["5s", "8s"]
            _street(srv, [a, b], "pre_flop", ["play_4x", "play_3x", "check"])
            a.ok("decide", action="check")
            b.ok("decide", action="check")
            for conn in (a, b):
                assert conn.recv_until("flop_turned")["cards"] == ["8d", "Th", "2s"]
            flop = _street(srv, [a, b], "flop", ["play_2x", "check"])
            assert a.ok("decide", action="play_2x")["state"]["bets"]["play"] == 40
            srv.advance_to(flop)  # bob: AUTO CHECKED
            assert b.recv_until("decision")["auto"] is True
            river = b.recv_until("decision_required")
            assert river["legal_actions"] == ["play_1x", "fold"]
            b.ok("decide", action="play_1x")
            assert a.recv_until("dealer_revealed")["category"] == "two_pair"
            s = a.recv_until("settlement")
            assert (s["game_number"], s["outcome"], s["net"], s["balance"]) == (
                gn2,
                "lose",
                -90,
                990,
            )
            assert s["wagers"] == _wagers(
                ante=(20, "lose", -20),
                blind=(20, "lose", -20),
                play=(40, "lose", -40),
                trips=(10, "lose", -10),
            )
            s = b.recv_until("settlement")
            assert (s["outcome"], s["net"], s["balance"]) == ("lose", -75, 925)
            assert s["wagers"] == _wagers(
                ante=(25, "lose", -25), blind=(25, "lose", -25), play=(25, "lose", -25)
            )

            # ---------------------------------------------------------- round 3
            srv.advance_to(a.recv_until("pause"))
            opened = a.recv_until("betting_open")
            gn3 = opened["game_number"]
            assert gn3 == "20261129-233119-0003"
            r = a.ok("repeat")  # the bets of round 2, doubled
            assert (r["state"]["bets"]["ante"], r["state"]["bets"]["trips"]) == (20, 10)
            b.ok("place_bet", spot="ante", amount=5)
            srv.advance_to(opened)
            for conn in (a, b):
                assert conn.recv_until("player_hand_dealt")["cards"] == ["2c", "Tc"]
            _street(srv, [a, b], "pre_flop", ["play_4x", "play_3x", "check"])
            a.ok("decide", action="play_3x")
            b.ok("decide", action="check")
            b.recv_until("decision_required")
            b.ok("decide", action="check")
            b.recv_until("decision_required")
            b.ok("decide", action="play_1x")
            s = a.recv_until("settlement")
            assert (s["outcome"], s["category"], s["net"], s["balance"]) == (
                "win",
                "flush",
                180,
                1170,
            )
            assert s["wagers"] == _wagers(
                ante=(20, "win", 20),
                blind=(20, "win", 30),  # a flush: Blind 3:2
                play=(60, "win", 60),
                trips=(10, "win", 70),  # a flush: Trips 7:1
            )
            s = b.recv_until("settlement")
            assert (s["net"], s["balance"]) == (17.5, 942.5)
            assert s["wagers"] == _wagers(
                ante=(5, "win", 5), blind=(5, "win", 7.5), play=(5, "win", 5)
            )

        # -------------------------------------------------------- afterwards
        assert (srv.me(alice), srv.me(bob), srv.me(carol)) == (1170, 942.5, 990)
        la, lb, lc = (srv.assert_consistent(p) for p in (alice, bob, carol))
        assert entries_of(la) == [
            ("signup", None, 1000, 1000),
            ("wager", "ante", -10, 990),
            ("wager", "blind", -10, 980),
            ("wager", "trips", -5, 975),
            ("wager", "play", -40, 935),
            ("payout", "ante", 20, 955),
            ("payout", "blind", 20, 975),
            ("payout", "play", 80, 1055),
            ("payout", "trips", 25, 1080),
            ("wager", "ante", -20, 1060),
            ("wager", "blind", -20, 1040),
            ("wager", "trips", -10, 1030),
            ("wager", "play", -40, 990),
            ("wager", "ante", -20, 970),
            ("wager", "blind", -20, 950),
            ("wager", "trips", -10, 940),
            ("wager", "play", -60, 880),
            ("payout", "ante", 40, 920),
            ("payout", "blind", 50, 970),
            ("payout", "play", 120, 1090),
            ("payout", "trips", 80, 1170),
        ]
        assert entries_of(lb) == [
            ("signup", None, 1000, 1000),
            ("wager", "ante", -10, 990),
            ("wager", "blind", -10, 980),
            ("wager", "trips", -5, 975),
            ("payout", "trips", 25, 1000),
            ("wager", "ante", -25, 975),
            ("wager", "blind", -25, 950),
            ("wager", "play", -25, 925),
            ("wager", "ante", -5, 920),
            ("wager", "blind", -5, 915),
            ("wager", "play", -5, 910),
            ("payout", "ante", 10, 920),
            ("payout", "blind", 12.5, 932.5),
            ("payout", "play", 10, 942.5),
        ]
        # Carol's bets of round 2 were declined when she left: no entry for it.
        assert entries_of(lc) == [
            ("signup", None, 1000, 1000),
            ("wager", "ante", -5, 995),
            ("wager", "blind", -5, 990),
        ]
        # The entries of each round carry its round id and game number.
        rounds = {e["round_id"] for e in la if e["round_id"] is not None}
        assert len(rounds) == 3
        for entry in la[1:]:
            gn = {1: gn1, 2: gn2, 3: gn3}[sorted(rounds).index(entry["round_id"]) + 1]
            assert gn in entry["reason"], entry

        assert [
            (h["game_number"], h["status"], h["total_stake"], h["net"]) for h in srv.history(alice)
        ] == [
            (gn3, "settled", 110, 180),
            (gn2, "settled", 90, -90),
            (gn1, "settled", 65, 80),
        ]
        assert [h["game_number"] for h in srv.history(carol)] == [gn1]
        assert [h["game_number"] for h in srv.history(bob)] == [gn3, gn2, gn1]
        for gn in (gn1, gn2, gn3):
            assert GAME_NUMBER.match(gn)

        d = srv.round_detail(alice, gn1)
        assert d["status"] == "settled" and d["table_id"] == "t1" and d["rules"] == "live"
        assert d["started_at"] == "2026-11-29T23:30:15+00:00"
        assert (d["hole"], d["dealer"], d["board"]) == (
            ["8s", "Qs"],
            ["3c", "Js"],
            ["Jh", "Qc", "7h", "9c", "Tc"],
        )
        assert (d["dealer_category"], d["dealer_qualifies"]) == ("pair", True)
        assert (d["category"], d["outcome"], d["decisions"]) == ("straight", "win", ["play_4x"])
        assert (d["balance_before"], d["balance_after"]) == (1000, 1080)
        assert d["wagers"]["trips"] == {"stake": 5, "result": "win", "net": 20}
        d = srv.round_detail(carol, gn1)
        assert d["decisions"] == ["auto:check", "auto:check", "auto:fold"]
        assert (d["outcome"], d["balance_before"], d["balance_after"]) == ("fold", 1000, 990)
        d = srv.round_detail(bob, gn2)
        assert d["decisions"] == ["check", "auto:check", "play_1x"]
        assert (d["balance_before"], d["balance_after"]) == (1000, 925)
        d = srv.round_detail(bob, gn3)
        assert (d["balance_before"], d["balance_after"]) == (925, 942.5)
        assert d["wagers"]["blind"] == {"stake": 5, "result": "win", "net": 7.5}
