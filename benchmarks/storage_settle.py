"""Micro-benchmark of the storage worker's work for one big round, on SQLite and PostgreSQL.

Usage (from the repository root)::

    .venv/bin/python benchmarks/storage_settle.py --players 1000 --rounds 5
    PYTHONPATH=/path/to/other/tree/src .venv/bin/python benchmarks/storage_settle.py

It signs up N players, then for each of R rounds times the three storage calls of
a round, each one transaction, as the table's storage worker makes them:

* ``close``: :meth:`SqlStore.debit` of every player's Ante and Blind, and a Trips
  bet for every third player (the close of betting; about 2.3 N ledger entries);
* ``credit``: :meth:`SqlStore.credit` of the payouts (half the players win their
  Ante, Blind and a 1x Play; every third wins their Trips);
* ``settle``: :meth:`SqlStore.settle_round` with N players' parts and 11 engine
  events per player (about 11,000 for 1,000 players, stored as ``to_dict()``);

and prints the median and min of each in milliseconds, with ``credit + settle``
(a settlement in the worker: ``uth.server.round_books.settle_round``). The time is
wall clock in this one process: on a shared machine, rerun and compare medians.
The ``uth`` imported is printed (``PYTHONPATH`` selects another tree's code).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

import uth
from uth.cards.card import parse_card
from uth.engine import events as ev
from uth.engine.table.effects import Debit, PlayerRound, RoundRecord
from uth.server.storage import SqlStore, make_engine, upgrade

T0 = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
D = Decimal
DECK = [r + s for s in "shdc" for r in "23456789TJQKA"]
PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@contextmanager
def database(kind: str, pg_url: str) -> Iterator[str]:
    """A URL of a fresh, empty database (a temporary SQLite file or PostgreSQL database)."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            yield f"sqlite:///{Path(tmp) / 'bench.db'}"
        return
    name = f"uth_bench_{uuid.uuid4().hex[:12]}"
    conninfo = pg_url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield make_url(pg_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(conninfo, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


def round_events(n: int, ids: list[int]) -> list[ev.Event]:
    """11 events a player, of the kinds and sizes of a real round's."""
    cards = tuple(parse_card(c) for c in DECK[:7])
    out: list[ev.Event] = [ev.RoundOpened(game_id=f"G-{n}", rules="casino", bank=None)]
    for pid in ids:
        who = str(pid)
        out += [
            ev.WagersPlaced(player=who, ante=D(10), blind=D(10), trips=D(5), bad_beat=D(0)),
            ev.HoleCardsDealt(player=who, cards=cards[:2]),
            ev.DecisionMade(player=who, street="pre_flop", action="check", multiple=0, play=D(0)),
            ev.DecisionMade(player=who, street="flop", action="check", multiple=0, play=D(0)),
            ev.DecisionMade(player=who, street="river", action="play_1x", multiple=1, play=D(10)),
            ev.HandShown(
                player=who, cards=cards[:2], category="flush", best_five=cards[:5], outcome="win"
            ),
        ]
        for wager in ("ante", "blind", "trips", "bad_beat", "play"):
            out.append(
                ev.WagerSettled(
                    player=who,
                    wager=wager,
                    stake=D(10),
                    result="win",
                    net=D(10),
                    uncovered=D(0),
                    capped=D(0),
                )
            )
    return out


def player_part(pid: int) -> PlayerRound:
    """A player's part in the settled round (five wager kinds, as the table stores them)."""
    wagers = {
        kind: {"stake": D(10), "result": "win", "net": D(10)}
        for kind in ("ante", "blind", "trips", "bad_beat", "play")
    }
    return PlayerRound(
        player_id=pid,
        hole=DECK[:2],
        decisions=["check", "check", "play_1x"],
        wagers=wagers,
        category="flush",
        best_five=DECK[:5],
        outcome="win",
    )


def timed(fn: Callable[..., Any], *args: Any) -> float:
    """Milliseconds taken by ``fn(*args)``."""
    start = time.perf_counter()
    fn(*args)
    return (time.perf_counter() - start) * 1000


def run(url: str, players: int, rounds: int) -> dict[str, list[float]]:
    """Time R rounds of N players on a migrated database at ``url``."""
    upgrade(url)
    engine = make_engine(url)
    store = SqlStore(engine)
    try:
        ids = [
            store.create_player(f"p{i}", f"tok-{i}", D(1_000_000), T0).id for i in range(players)
        ]
        times: dict[str, list[float]] = {"close": [], "credit": [], "settle": []}
        for n in range(rounds):
            now = T0 + timedelta(minutes=n + 1)
            round_id = store.open_round("bench", f"G-{n:04d}", "casino", now)
            debits = [Debit(pid, kind, D(10)) for pid in ids for kind in ("ante", "blind")]
            debits += [Debit(pid, "trips", D(5)) for pid in ids[::3]]
            credits: dict[int, dict[str, Decimal]] = {
                pid: {"ante": D(20), "blind": D(20), "play": D(20)} for pid in ids[::2]
            }
            for pid in ids[::3]:
                credits.setdefault(pid, {})["trips"] = D(20)
            record = RoundRecord(
                settled_at=now,
                deck=DECK,
                board=DECK[4:9],
                dealer=DECK[2:4],
                dealer_category="pair",
                dealer_qualifies=True,
                players=[player_part(pid) for pid in ids],
                events=round_events(n, ids),
            )
            times["close"].append(timed(store.debit, round_id, debits, now))
            times["credit"].append(timed(store.credit, round_id, credits, now))
            times["settle"].append(timed(store.settle_round, round_id, record))
        return times
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--pg-url", default=PG_URL)
    args = parser.parse_args()
    print(f"uth from {Path(uth.__file__).parent}; {args.players} players, {args.rounds} rounds")
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    for kind in kinds:
        with database(kind, args.pg_url) as url:
            times = run(url, args.players, args.rounds)
        both = [c + s for c, s in zip(times["credit"], times["settle"], strict=True)]
        for name, values in [*times.items(), ("credit+settle", both)]:
            print(
                f"{kind:10} {name:13} median {statistics.median(values):7.1f} ms"
                f"   min {min(values):7.1f} ms"
            )


if __name__ == "__main__":
    main()
