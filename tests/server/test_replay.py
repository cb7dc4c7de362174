"""``uth replay``: stored rounds re-run through the engine, their result and ledger
entries confirmed, and a round altered by hand reported with its first difference.

One live server run on SQLite (seed 6, as in ``test_live_rounds``) stores two rounds:

- round 1, settled: alice (player 1) bets Ante 10 and Trips 5 and plays 4x with 8s Qs
  (a queen-high straight on Jh Qc 7h 9c Tc); bob (player 2) bets Ante 10, checks
  twice and folds. Ledger: 6 debits, 4 payouts (alice's Ante 20, Blind 20, Play 80,
  Trips 25);
- round 2, voided by the operator after alice checked: her Ante and Blind debited
  and refunded (4 entries).

Each test alters a copy of that database.
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from helpers import OPERATOR_TOKEN, entries_of, live_server, sql
from typer.testing import CliRunner

from uth.cli.main import app
from uth.engine import history
from uth.server.replay import check_all, check_round
from uth.server.storage import SqlStore, downgrade, make_engine, upgrade

G1 = "20261129-233015-0001"
G2 = "20261129-233027-0002"
runner = CliRunner()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The database of one live run: round 1 settled, round 2 voided."""
    tmp = tmp_path_factory.mktemp("replay")
    db = tmp / "uth.db"
    op = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
    with live_server(f"sqlite:///{db}", tmp, seed=6) as srv:
        alice, bob = srv.sign_in("alice"), srv.sign_in("bob")
        with srv.connect(alice) as a, srv.connect(bob) as b:
            assert a.snapshot["game_number"] == G1
            a.ok("place_bet", spot="ante", amount=10)
            a.ok("place_bet", spot="trips", amount=5)
            b.ok("place_bet", spot="ante", amount=10)
            srv.advance_to(a.snapshot)
            a.recv_until("decision_required")
            b.recv_until("decision_required")
            a.ok("decide", action="play_4x")
            for action in ("check", "check", "fold"):
                b.ok("decide", action=action)
                if action != "fold":
                    b.recv_until("decision_required")
            assert a.recv_until("settlement")["net"] == 80
            srv.advance_to(a.recv_until("pause"))
            opened = a.recv_until("betting_open")
            assert opened["game_number"] == G2
            a.ok("place_bet", spot="ante", amount=10)
            srv.advance_to(opened)
            a.recv_until("decision_required")
            a.ok("decide", action="check")
            r = srv.client.post(
                f"/api/operator/rounds/{G2}/void", json={"reason": "card exposed"}, headers=op
            )
            assert r.json() == {"game_number": G2, "status": "voiding"}
            a.recv_until("round_voided")
    return db


@pytest.fixture
def db(played: Path, tmp_path: Path) -> str:
    """A copy of the played database, to alter: its URL."""
    copy = tmp_path / "copy.db"
    shutil.copyfile(played, copy)
    return f"sqlite:///{copy}"


def _alter_record(url: str, game_number: str, change: Any) -> None:
    [(record,)] = sql(url, "SELECT record FROM rounds WHERE game_number = :g", g=game_number)
    data = json.loads(record)
    change(data)
    altered = json.dumps(data, sort_keys=True, separators=(",", ":"))
    sql(url, "UPDATE rounds SET record = :r WHERE game_number = :g", r=altered, g=game_number)


def _replay(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["replay", *args])
    return result.exit_code, result.output


def test_every_stored_round_replays_and_its_ledger_matches(db: str) -> None:
    assert _replay(G1, "--database", db) == (
        0,
        f"game {G1}: replayed, result and 10 ledger entries match\n",
    )
    assert _replay("--all", "--database", db) == (
        0,
        f"game {G1}: replayed, result and 10 ledger entries match\n"
        f"game {G2}: replayed, result and 4 ledger entries match\n"
        "2 rounds: 2 replayed and matched, 0 voided before a record was kept "
        "(net zero), 0 open (skipped), 0 differ\n",
    )
    code, out = _replay(G2, "--database", db, "--json")
    assert code == 0
    assert json.loads(out) == {
        "game_number": G2,
        "status": "voided",
        "outcome": "match",
        "entries": 4,
        "difference": None,
        "table_differences": [],
        "message": f"game {G2}: replayed, result and 4 ledger entries match",
    }
    [(fingerprint,)] = sql(db, "SELECT DISTINCT rules_fingerprint FROM rounds")
    assert len(fingerprint) == 64


def test_a_payout_altered_in_the_record_is_the_first_difference(db: str) -> None:
    def change(data: dict[str, Any]) -> None:
        data["result"]["1"]["trips"]["payout"] = "30.00"

    _alter_record(db, G1, change)
    assert _replay(G1, "--database", db) == (
        1,
        f"game {G1}: differs: result.1.trips.payout: stored 30.00, replayed 25.00\n",
    )


def test_a_card_altered_in_the_deck_is_reported(db: str) -> None:
    def change(data: dict[str, Any]) -> None:
        deck = data["deck"]  # the flop's first card (Jh) swapped with the last (Ah)
        deck[4], deck[51] = deck[51], deck[4]

    _alter_record(db, G1, change)
    # Board Ah Qc 7h 9c Tc: alice's queens still beat the dealer, who no longer
    # qualifies (Ante pushes), the Blind pushes and Trips loses: 80 becomes 35.
    assert _replay(G1, "--database", db) == (
        1,
        f"game {G1}: differs: result.1.net: stored 80.00, replayed 35.00\n",
    )


def test_an_action_altered_is_reported(db: str) -> None:
    def change(data: dict[str, Any]) -> None:
        assert data["actions"][3]["payload"]["action"] == "play_4x"
        data["actions"][3]["payload"]["action"] = "play_3x"

    _alter_record(db, G1, change)
    assert _replay(G1, "--database", db) == (
        1,
        f"game {G1}: differs: result.1.net: stored 80.00, replayed 70.00\n",
    )


def test_an_action_the_engine_refuses_is_named(db: str) -> None:
    def change(data: dict[str, Any]) -> None:
        data["actions"][4]["player"] = "1"  # alice acts twice pre-flop

    _alter_record(db, G1, change)
    code, out = _replay(G1, "--database", db)
    assert code == 1
    assert out.startswith(f"game {G1}: differs: actions[4]: the engine refuses act by '1': ")


def test_a_ledger_entry_altered_is_reported(db: str) -> None:
    # Money is stored in cents: alice's Trips payout of 25.00 becomes 30.00.
    sql(db, "UPDATE ledger_entries SET amount = 3000 WHERE kind = 'payout' AND wager = 'trips'")
    code, out = _replay("--all", "--database", db)
    assert code == 1
    assert out.splitlines() == [
        f"game {G1}: differs: ledger: player 1 payout trips: stored 30.00, the round implies 25.00",
        f"game {G2}: replayed, result and 4 ledger entries match",
        "2 rounds: 1 replayed and matched, 0 voided before a record was kept (net zero), "
        "0 open (skipped), 1 differ",
    ]


def test_a_refund_missing_from_a_voided_round_is_reported(db: str) -> None:
    sql(db, "DELETE FROM ledger_entries WHERE kind = 'refund' AND wager = 'blind'")
    assert _replay(G2, "--database", db) == (
        1,
        f"game {G2}: differs: ledger: player 1 blind: nets -10.00 in a voided round, not 0.00\n",
    )


def test_a_voided_round_whose_debit_was_never_stored_replays(db: str) -> None:
    # The storage failure that voids a round may come before a wager's debit is
    # stored: that wager then has neither debit nor refund, and the round matches.
    sql(db, "DELETE FROM ledger_entries WHERE wager = 'blind'")
    assert _replay(G2, "--database", db) == (
        0,
        f"game {G2}: replayed, result and 2 ledger entries match\n",
    )
    # A debit altered in a voided round is still the first difference.
    sql(
        db,
        "UPDATE ledger_entries SET amount = -500 WHERE kind = 'wager' AND wager = 'ante'"
        " AND round_id = (SELECT id FROM rounds WHERE game_number = :g)",
        g=G2,
    )
    code, out = _replay(G2, "--database", db)
    assert (code, out) == (
        1,
        f"game {G2}: differs: ledger: player 1 wager ante: stored -5.00, "
        "the round implies -10.00\n",
    )


def test_a_round_without_a_record_or_another_status(db: str) -> None:
    sql(db, "UPDATE rounds SET status = 'settled' WHERE game_number = :g", g=G2)
    assert _replay(G2, "--database", db)[1] == (
        f"game {G2}: differs: status: stored voided, the round log has settled\n"
    )
    sql(db, "UPDATE rounds SET record = NULL WHERE game_number = :g", g=G1)
    assert _replay(G1, "--database", db) == (
        1,
        f"game {G1}: differs: record: none stored for this settled round\n",
    )


def test_bad_arguments_and_databases_exit_2(db: str, tmp_path: Path) -> None:
    assert _replay("--database", db) == (2, "error: game_number: give a game number or --all\n")
    assert _replay(G1, "--all", "--database-url", db) == (
        2,
        "error: game_number: give one game number or --all, not both\n",
    )
    assert _replay("nope", "--database", db) == (2, "error: game_number: no round nope\n")
    code, out = _replay("nope", "--database", db, "--json")
    assert (code, json.loads(out)) == (2, {"error": "game_number: no round nope"})
    empty = f"sqlite:///{tmp_path / 'empty.db'}"
    assert _replay("--all", "--database", empty) == (
        2,
        f"error: --database-url: no database at {tmp_path / 'empty.db'}\n",
    )
    assert not (tmp_path / "empty.db").exists()
    (tmp_path / "empty.db").touch()
    assert _replay("--all", "--database", empty) == (
        2,
        f"error: database: {empty} holds no uth database\n",
    )
    downgrade(db, "0003")
    assert _replay("--all", "--database", db) == (
        2,
        f"error: database: {db} is at revision 0003, not 0006; run `uth db upgrade` "
        "(rounds stored before revision 0004 have no record)\n",
    )


def test_replay_without_a_database_creates_no_file(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.delenv("UTH_DATABASE_URL", raising=False)
    assert _replay("NOPE") == (2, "error: --database-url: no database at uth.db\n")
    assert list(here.iterdir()) == []
    assert _replay(G1, "--database-url", db) == (
        0,
        f"game {G1}: replayed, result and 10 ledger entries match\n",
    )


def test_check_all_sees_open_rounds_and_rounds_voided_before_a_record(db: str) -> None:
    engine = make_engine(db)
    try:
        store = SqlStore(engine)
        store.open_round("t1", "G-open", "live", datetime(2026, 11, 29, 23, 40, tzinfo=UTC))
        sql(db, "UPDATE rounds SET record = NULL WHERE game_number = :g", g=G2)
        assert [c.message() for c in check_all(store, store)] == [
            f"game {G1}: replayed, result and 10 ledger entries match",
            f"game {G2}: voided before its record was kept; its 4 ledger entries net to zero",
            "game G-open: open, not finished: nothing to replay yet",
        ]
        assert [c.ok for c in check_all(store, store)] == [True, True, True]
    finally:
        engine.dispose()


class _SettlementFails(SqlStore):
    """``credit`` (the settlement's first write) fails, as a database gone away would."""

    def credit(self, round_id: int, credits: Any, now: Any) -> Any:
        raise RuntimeError("database went away")


def test_a_round_voided_after_the_engine_settled_it_keeps_its_record_and_replays(
    store_url: str, tmp_path: Path
) -> None:
    # Issue 8, item 4: every stored round replays. The engine settled the round (the
    # showdown), its settlement could not be stored (the round paused), then the
    # operator voided it: its record is the engine's settled round, which replays to
    # that result; its ledger holds the debits the round implies, all refunded.
    upgrade(store_url)
    store = _SettlementFails(make_engine(store_url))
    try:
        with live_server(store_url, tmp_path, seed=6, store=store) as srv:
            alice = srv.sign_in("alice")
            with srv.connect(alice) as a:
                a.ok("place_bet", spot="ante", amount=10)
                a.ok("place_bet", spot="trips", amount=5)
                srv.advance_to(a.snapshot)
                a.recv_until("decision_required")
                a.ok("decide", action="play_4x")
                game = a.recv_until("round_paused")["game_number"]
                r = srv.client.post(
                    f"/api/operator/rounds/{game}/void",
                    json={"reason": "storage fault confirmed"},
                    headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
                )
                assert r.json() == {"game_number": game, "status": "voiding"}
                assert a.recv_until("round_voided")["balance"] == 1000
            assert [e[:3] for e in entries_of(srv.ledger(alice))[1:]] == [
                ("wager", "ante", -10), ("wager", "blind", -10), ("wager", "trips", -5),
                ("wager", "play", -40), ("refund", "ante", 10), ("refund", "blind", 10),
                ("refund", "trips", 5), ("refund", "play", 40),
            ]  # fmt: skip
        stored = store.stored_round(game)
        assert stored.status == "voided" and stored.record is not None
        record = history.decode(stored.record)
        assert (record.game_id, record.status) == (game, "settled")
        check = check_round(store, store, game)
        assert (check.outcome, check.entries, check.difference) == ("match", 8, None)
        assert _replay(game, "--database", store_url) == (
            0,
            f"game {game}: replayed, result and 8 ledger entries match\n",
        )
    finally:
        store.engine.dispose()
