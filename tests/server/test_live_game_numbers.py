"""Game numbers ``YYYYMMDD-HHMMSS-NNNN``: the round's start in UTC and a sequence
number (004: the number tells when the round began). A round's history is found
by its game number.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

from helpers import GAME_NUMBER, live_server


def test_game_numbers_read_as_the_utc_start(store_url: str, tmp_path: Path) -> None:
    # 01:30:15.9 at UTC+2 is 23:30:15 UTC the day before; seconds are truncated.
    start = datetime(2026, 11, 30, 1, 30, 15, 900_000, tzinfo=timezone(timedelta(hours=2)))
    with live_server(store_url, tmp_path, start=start) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            first = a.snapshot["game_number"]
            assert first == "20261129-233015-0001"
            assert GAME_NUMBER.match(first)
            # Nobody bets: the next betting window has the next number.
            srv.advance_to(a.snapshot)
            opened = a.recv_until("betting_open")
            assert opened["game_number"] == "20261129-233025-0002"
            assert opened["now"] == "2026-11-29T23:30:25.900000+00:00"
            a.ok("place_bet", spot="ante", amount=10)
            srv.advance_to(opened)
            a.recv_until("decision_required")
            a.ok("decide", action="play_4x")
            settled = a.recv_until("settlement")
            assert settled["game_number"] == "20261129-233025-0002"
        (row,) = srv.history(alice)
        assert row["game_number"] == "20261129-233025-0002"
        started = datetime.fromisoformat(row["started_at"])
        assert started == datetime(2026, 11, 29, 23, 30, 25, tzinfo=UTC)
        assert started.strftime("%Y%m%d-%H%M%S") == row["game_number"][:15]
        detail = srv.round_detail(alice, row["game_number"])
        assert detail["game_number"] == row["game_number"]
        assert detail["decisions"] == ["play_4x"]
        assert set(detail) >= {
            "hole",
            "board",
            "dealer",
            "dealer_category",
            "dealer_qualifies",
            "decisions",
            "wagers",
            "category",
            "outcome",
            "balance_before",
            "balance_after",
            "settled_at",
        }
        assert detail["balance_after"] - detail["balance_before"] == settled["net"]
        assert set(detail["wagers"]) == {"ante", "blind", "play", "trips", "bad_beat"}
