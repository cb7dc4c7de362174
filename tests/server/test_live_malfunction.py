"""004's malfunction procedure (issue 7, item 10): on an error the round is paused
and every player told it is being investigated; the operator resumes it or
cancels it (void and refund). The server pauses by itself on a deck that fails
its integrity check and on a storage error (test_live_faults). Players of a round
voided by a restart are told so on reconnecting, with the game number.

Seed 6, round 1: player hand 8s Qs, dealer 3c Js, board Jh Qc 7h 9c Tc.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

from helpers import OPERATOR_TOKEN, START, LiveServer, entries_of, live_server

from uth.cards import Card, SeededShuffler
from uth.server.ports import Debit
from uth.server.storage import SqlStore, make_engine, upgrade

OPERATOR = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}


def _operator(srv: LiveServer, game: str, action: str, reason: str = "checked") -> Any:
    return srv.client.post(
        f"/api/operator/rounds/{game}/{action}", json={"reason": reason}, headers=OPERATOR
    )


def test_the_operator_pauses_and_resumes_a_round(store_url: str, tmp_path: Path) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice, bob = srv.sign_in("alice"), srv.sign_in("bob")
        with srv.connect(alice) as a, srv.connect(bob) as b:
            a.ok("place_bet", spot="ante", amount=10)
            srv.advance_to(a.snapshot)
            pre = a.recv_until("decision_required")
            game = pre["game_number"]
            r = _operator(srv, game, "pause", "dealer reports a card face up")
            assert (r.status_code, r.json()) == (200, {"game_number": game, "status": "paused"})
            paused = {
                "type": "round_paused",
                "game_number": game,
                "reason": "dealer reports a card face up",
                "message": "The round is paused: the issue is being investigated.",
            }
            assert a.recv_until("round_paused") == paused
            assert b.recv_until("round_paused") == paused
            refused = a.cmd("decide", action="play_4x", street="pre_flop")
            assert (refused["code"], refused["message"]) == (
                "round_paused",
                "decide: the round is paused (dealer reports a card face up)",
            )
            snap = a.ok("snapshot")["snapshot"]
            assert (snap["paused"]["reason"], snap["deadline"]) == (
                "dealer reports a card face up",
                None,
            )
            # Time passes while paused: the timer does not decide.
            srv.clock.advance(60)
            assert _operator(srv, game, "pause").json()["status"] == "paused"  # already
            r = _operator(srv, game, "resume", "card replaced")
            assert (r.status_code, r.json()) == (200, {"game_number": game, "status": "resumed"})
            resumed = a.recv_until("round_resumed")
            assert resumed["game_number"] == game
            assert resumed["seconds_left"] == 10.0  # the decision time starts again
            again = a.recv_until("decision_required")
            assert (again["street"], again["legal_actions"]) == (
                "pre_flop",
                ["play_4x", "play_3x", "check"],
            )
            assert [m["type"] for m in a.log].count("decision") == 0
            a.ok("decide", action="play_4x")
            settled = a.recv_until("settlement")
            assert (settled["game_number"], settled["net"]) == (
                game,
                60,
            )  # a straight: Ante +10, Blind 1:1 +10, Play +40
            assert _operator(srv, game, "resume").status_code == 404
        lines = [
            (x["actor"], x["action"], x["reason"])
            for x in reversed(srv.audit())
            if x["details"].get("game_number") == game
        ]
        assert lines == [
            ("operator", "pause_round", "dealer reports a card face up"),
            ("operator", "resume_round", "resumed by the operator"),
        ]
        assert _operator(srv, "20261129-000000-0001", "pause").status_code == 404


def test_resume_of_a_round_not_paused_is_a_conflict(store_url: str, tmp_path: Path) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            a.ok("place_bet", spot="ante", amount=10)
            srv.advance_to(a.snapshot)
            game = a.recv_until("decision_required")["game_number"]
            r = _operator(srv, game, "resume")
            assert r.status_code == 409
            assert r.json()["error"]["code"] == "round_not_paused"


class BadDeckOnce:
    """A shuffler whose first deck holds the ace of spades twice (a faulty
    shuffling machine); the decks after it come from a seeded shuffler.
    """

    def __init__(self, seed: int) -> None:
        self.inner = SeededShuffler(seed)
        self.bad = 1

    def shuffle(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        if self.bad:
            self.bad -= 1
            ace = next(c for c in cards if str(c) == "As")
            return (ace, *[ace if str(c) == "Ks" else c for c in cards if c != ace])
        return self.inner.shuffle(cards)


def test_a_deck_failing_its_check_pauses_then_the_operator_voids(
    store_url: str, tmp_path: Path
) -> None:
    with live_server(store_url, tmp_path, shuffler=BadDeckOnce(6)) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            a.ok("place_bet", spot="ante", amount=10)
            a.ok("place_bet", spot="trips", amount=5)
            srv.advance_to(a.snapshot)
            paused = a.recv_until("round_paused")
            game = paused["game_number"]
            assert paused["reason"] == "deck integrity check failed: deck: duplicate card As"
            assert srv.me(alice) == 975  # debited, not dealt
            r = _operator(srv, game, "void", "shuffler out of order")
            assert r.json() == {"game_number": game, "status": "voiding"}
            seen = a.drain_until("round_voided")
            assert (seen[-1]["reason"], seen[-1]["balance"]) == ("shuffler out of order", 1000)
            assert not {"player_hand_dealt", "decision_required"} & {m["type"] for m in seen}
            srv.advance_to(a.recv_until("pause"))
            a.recv_until("betting_open")
            assert a.ok("snapshot")["snapshot"]["last_result"] is None  # a new window
        assert entries_of(srv.assert_consistent(alice))[1:] == [
            ("wager", "ante", -10, 990),
            ("wager", "blind", -10, 980),
            ("wager", "trips", -5, 975),
            ("refund", "ante", 10, 985),
            ("refund", "blind", 10, 995),
            ("refund", "trips", 5, 1000),
        ]


def test_a_deck_failing_its_check_is_shuffled_again_on_resume(
    store_url: str, tmp_path: Path
) -> None:
    with live_server(store_url, tmp_path, shuffler=BadDeckOnce(6)) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            a.ok("place_bet", spot="ante", amount=10)
            srv.advance_to(a.snapshot)
            game = a.recv_until("round_paused")["game_number"]
            assert _operator(srv, game, "resume").json()["status"] == "resumed"
            resumed = a.recv_until("round_resumed")
            assert resumed["deadline"] is None
            # The new shuffle is the seeded shuffler's first deck.
            assert a.recv_until("player_hand_dealt")["cards"] == ["8s", "Qs"]
            a.ok("decide", action="play_4x")
            assert a.recv_until("settlement")["net"] == 60
        srv.assert_consistent(alice)


def test_players_of_a_round_voided_by_a_restart_are_told_on_reconnect(
    store_url: str, tmp_path: Path
) -> None:
    """A server stopped mid-round (the storage left as a kill leaves it): the next
    start voids the round, and each of its players is told once, with the game
    number, on their next connection.
    """
    with live_server(store_url, tmp_path) as srv:
        alice, bob, carol = srv.sign_in("alice"), srv.sign_in("bob"), srv.sign_in("carol")
    upgrade(store_url)
    engine = make_engine(store_url)
    try:
        store = SqlStore(engine)
        game = "20261129-233015-0007"
        round_id = store.open_round("t1", game, "live", START)
        store.debit(
            round_id,
            [
                Debit(alice.id, "ante", 10),
                Debit(alice.id, "blind", 10),
                Debit(bob.id, "ante", 5),
                Debit(bob.id, "blind", 5),
            ],
            START,
        )
    finally:
        engine.dispose()
    with live_server(store_url, tmp_path, start=START + timedelta(minutes=5)) as srv:
        with srv.connect(alice) as a:
            told = a.recv_until("round_voided")
            assert told == {
                "type": "round_voided",
                "game_number": game,
                "code": "server_restarted",
                "reason": "server restarted during the round",
                "balance": 1000,
            }
        with srv.connect(alice) as a:  # told once
            a.ok("snapshot")
            assert "round_voided" not in [m["type"] for m in a.log]
        with srv.connect(bob) as b:
            assert b.recv_until("round_voided")["game_number"] == game
        with srv.connect(carol) as c:  # not in the round
            c.ok("snapshot")
            assert "round_voided" not in [m["type"] for m in c.log]


class FailingOpenStore(SqlStore):
    """``open_round`` fails once: the round is paused before anything is debited."""

    def __init__(self, url: str) -> None:
        super().__init__(make_engine(url))
        self.failures = 1

    def open_round(self, *args: Any) -> int:
        if self.failures:
            self.failures -= 1
            raise ConnectionError("database unreachable")
        return super().open_round(*args)


def test_a_round_paused_before_its_debit_and_voided_releases_the_bets(
    store_url: str, tmp_path: Path
) -> None:
    upgrade(store_url)
    store = FailingOpenStore(store_url)
    try:
        with live_server(store_url, tmp_path, store=store) as srv:
            alice = srv.sign_in("alice")
            with srv.connect(alice) as a:
                a.ok("place_bet", spot="ante", amount=10)
                srv.advance_to(a.snapshot)
                paused = a.recv_until("round_paused")
                assert paused["reason"] == "storage error: ConnectionError"
                assert srv.me(alice) == 980  # reserved, not debited
                game = paused["game_number"]
                assert _operator(srv, game, "void", "database down").json()["status"] == "voiding"
                voided = a.recv_until("round_voided")
                assert (voided["reason"], voided["balance"]) == ("database down", 1000)
                srv.advance_to(a.recv_until("pause"))
                opened = a.recv_until("betting_open")
                state = a.ok("snapshot")["state"]
                assert (state["balance"], state["bets"]["ante"]) == (1000, 0)
                a.ok("place_bet", spot="ante", amount=10)
                srv.advance_to(opened)
                a.recv_until("decision_required")
                a.ok("decide", action="play_4x")
                assert a.recv_until("settlement")["net"] == 60
            # Nothing of the voided round reached the ledger.
            assert entries_of(srv.assert_consistent(alice))[1:] == [
                ("wager", "ante", -10, 990),
                ("wager", "blind", -10, 980),
                ("wager", "play", -40, 940),
                ("payout", "ante", 20, 960),
                ("payout", "blind", 20, 980),
                ("payout", "play", 80, 1060),
            ]
    finally:
        store.engine.dispose()
