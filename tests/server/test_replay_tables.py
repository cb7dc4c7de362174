"""A card-room table's rounds checked against each other
(``uth.server.replay_tables.table_differences``), on records made by the engine and
kept in an in-memory round log: voided rounds (a deck taken or not; no streak),
server runs, betting windows nobody bet in, the third-party banker, offer steps
passed over or not.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal

from uth.cards import PreparedDeck, stacked_deck
from uth.engine import Phase, Round
from uth.engine.banking import OfferStep
from uth.engine.history import encode, record_of
from uth.rules import preset
from uth.server.records import AuditEntry, StoredRound
from uth.server.replay_tables import table_differences

BANK = Decimal(500)


class Log:
    """The three calls of a RoundLog the check makes: the rounds, opened in list
    order (ids 1, 2, ...), and a server start after each of ``starts`` rounds (its
    audit line names the newest round id then).
    """

    def __init__(self, rounds: list[StoredRound], starts: tuple[int, ...] = ()) -> None:
        self.rounds = {r.game_number: replace(r, round_id=i) for i, r in enumerate(rounds, 1)}
        self.starts = starts

    def game_numbers(self) -> list[str]:
        return list(self.rounds)

    def stored_round(self, game_number: str) -> StoredRound:
        return self.rounds[game_number]

    def audit_lines(self, action: str) -> list[AuditEntry]:
        assert action == "server_started"
        at = datetime(2026, 11, 30, tzinfo=UTC)
        details = {"card_rooms": {}}
        return [
            AuditEntry(i, at, "system", action, "server started", {**details, "last_round_id": n})
            for i, n in enumerate(self.starts, 1)
        ]


def game(second: int, sequence: int) -> str:
    return f"20261130-1000{second:02d}-{sequence:04d}"


def stored(
    game_number: str,
    banker: str,
    seat: int | None,
    colour: str | None,
    *,
    status: str = "settled",
    offers: tuple[OfferStep, ...] | None = None,
    bettors: tuple[tuple[str, int], ...] = (("carol", 3),),
    table: str = "t1",
) -> StoredRound:
    """A card-room round banked by ``banker`` (at ``seat``; None: the backer), dealt
    from the ``colour`` deck (None: voided before the deal), settled or voided.
    """
    rules = preset("california")
    rnd = Round(rules, game_id=game_number, bank=BANK)
    for player, at in bettors:
        rnd.place_wagers(player, ante=10, seat=at)
    if colour is not None:
        rnd.close_betting(PreparedDeck(stacked_deck(()), colour))
        if status == "settled":
            while rnd.phase in (Phase.PRE_FLOP, Phase.FLOP, Phase.RIVER):
                turn = rnd.to_act
                assert turn is not None
                rnd.act(turn, rnd.timeout_action(turn), auto=True)
    if status == "voided":
        rnd.void("operator void")
    assert str(rnd.phase) == status
    steps = offers if offers is not None else (OfferStep(banker, seat, "accepted", BANK),)
    record = replace(record_of(rnd), player_dealer=banker, offers=steps)
    return StoredRound(0, game_number, table, status, encode(record), record.rules_fingerprint)


def test_a_voided_round_takes_a_deck_when_dealt_but_never_counts_to_a_streak() -> None:
    g = [game(i, i) for i in range(1, 6)]
    rounds = [
        stored(g[0], "alice", 1, "blue"),
        stored(g[1], "alice", 1, "red", status="voided"),  # dealt: red is taken
        stored(g[2], "alice", 1, "blue"),  # her second settled round in a row
        stored(g[3], "bob", 2, None, status="voided"),  # voided before the deal
        stored(g[4], "alice", 1, "red"),
    ]
    # After g[2] the offer starts at seat 2 (alice banked two in a row): bob accepts
    # in g[3], which does not count, and then starts the offer again at his seat.
    assert table_differences(Log(rounds)) == {
        g[4]: (
            "player_dealer: stored player alice banking 3 rounds in a row (games "
            f"{g[0]}, {g[2]} and this one), expected another player: at most 2 in a row",
            f"offers[0]: stored seat 1 (player alice), expected seat 3 first: the offer "
            f"starts at seat 2 after game {g[3]}",
        )
    }
    rounds[4] = stored(
        g[4],
        "alice",
        1,
        "red",
        offers=(
            OfferStep("bob", 2, "declined"),
            OfferStep("carol", 3, "declined"),
            OfferStep("alice", 1, "passed_over"),
            OfferStep("dan", None, "accepted", BANK),  # the third-party banker
        ),
    )
    assert table_differences(Log(rounds)) == {}


def test_the_decks_alternate_across_server_starts() -> None:
    first, second = game(1, 1), game(2, 2)
    again = game(30, 1)  # the server started again after two rounds: numbers from 0001
    # bob keeps the position after the start (he banked one round in a row).
    rounds = [
        stored(first, "alice", 1, "blue"),
        stored(second, "bob", 2, "red"),
        stored(again, "bob", 2, "blue"),
    ]
    assert table_differences(Log(rounds, starts=(2,))) == {}
    rounds[2] = stored(again, "bob", 2, "red")
    assert table_differences(Log(rounds, starts=(2,))) == {
        again: (
            f"deck_colour: stored red, expected blue (game {second} before it took the red deck)",
        )
    }
    # The start found by its audit line, not by the game numbers: here the new run's
    # 0001 and 0002 were betting windows nobody bet in, so 0003 follows 0002.
    later = game(30, 3)
    rounds[2] = stored(later, "bob", 2, "red")
    assert table_differences(Log(rounds, starts=(2,))) == {
        later: (
            f"deck_colour: stored red, expected blue (game {second} before it took the red deck)",
        )
    }
    # Rounds kept without the start's audit line (before it existed): where the game
    # numbers go down the colour is taken as found.
    rounds[2] = stored(again, "bob", 2, "red")
    assert table_differences(Log(rounds)) == {}
    rounds[1] = stored(second, "bob", 2, "blue")
    rounds[2] = stored(game(3, 3), "bob", 2, "red")  # the same run: blue follows
    assert table_differences(Log(rounds)) == {
        second: (
            f"deck_colour: stored blue, expected red (game {first} before it took the blue deck)",
        ),
        game(3, 3): (
            f"deck_colour: stored red, expected blue (game {second} before it took the red deck)",
        ),
    }
    rounds = [stored(first, "alice", 1, "red")]
    assert table_differences(Log(rounds)) == {
        first: ("deck_colour: stored red, expected blue (the first round dealt at table t1)",)
    }


def test_a_third_round_banked_in_a_row_across_a_server_start() -> None:
    # alice banks 0001 and 0002 at seat 1 (settled); the server starts again; in its
    # 0001 she sits at seat 2, where the restored offer starts, and banks again.
    g1, g2, again = game(1, 1), game(2, 2), game(30, 1)
    third = (OfferStep("alice", 2, "accepted", BANK),)
    rounds = [
        stored(g1, "alice", 1, "blue"),
        stored(g2, "alice", 1, "red"),
        stored(again, "alice", 2, "blue", offers=third),
    ]
    expected = {
        again: (
            f"player_dealer: stored player alice banking 3 rounds in a row (games {g1}, "
            f"{g2} and this one), expected another player: at most 2 in a row",
        )
    }
    assert table_differences(Log(rounds, starts=(2,))) == expected
    # Without the start's audit line too (the streak never starts afresh).
    assert table_differences(Log(rounds)) == expected
    # A round voided at the restart (no record: it never settled) changes nothing.
    cut = replace(stored(game(3, 3), "alice", 1, "blue"), status="voided", record=None)
    assert table_differences(Log([*rounds[:2], cut, rounds[2]], starts=(3,))) == expected
    # Passed over, as the server does: bob (seat 3) banks the first round after it.
    rounds[2] = stored(
        again,
        "bob",
        3,
        "blue",
        offers=(OfferStep("alice", 2, "passed_over"), OfferStep("bob", 3, "accepted", BANK)),
        bettors=(("alice", 2),),
    )
    assert table_differences(Log(rounds, starts=(2,))) == {}


def test_the_offer_start_is_restored_at_a_server_start() -> None:
    # alice banks one round at seat 1 (she may keep the position): the offer after
    # the start starts at seat 1 again, even if game numbers are missing before it.
    before, again = game(1, 5), game(30, 1)
    bob_first = (OfferStep("bob", 2, "accepted", BANK),)
    rounds = [
        stored(before, "alice", 1, "blue"),
        stored(again, "bob", 2, "red", offers=bob_first, bettors=(("alice", 1),)),
    ]
    assert table_differences(Log(rounds, starts=(1,))) == {
        again: (
            f"offers[0]: stored seat 2 (player bob), expected seat 1 first: the offer "
            f"starts at seat 1 after game {before}",
        )
    }
    # A betting window nobody bet in at the new run's 0001 may have moved it: not checked.
    rounds[1] = stored(game(30, 2), "bob", 2, "red", offers=bob_first, bettors=(("alice", 1),))
    assert table_differences(Log(rounds, starts=(1,))) == {}


def test_the_start_is_checked_only_when_no_betting_window_may_have_moved_it() -> None:
    # alice banks 0001 at seat 1; the offer of the next round starts at her seat.
    # bob, not alice, is offered it first in 0003.
    bob_first = (OfferStep("bob", 2, "accepted", BANK),)
    at_t1 = stored(game(1, 1), "alice", 1, "blue", bettors=(("carol", 3),))
    later = stored(game(9, 3), "bob", 2, "red", offers=bob_first, bettors=(("alice", 1),))
    # 0002 not stored: a betting window nobody bet in, maybe at this table (bob may
    # have banked it, moving the start to his seat).
    assert table_differences(Log([at_t1, later])) == {}
    # 0002 is another table's round: nothing moved this table's rotation.
    other = stored(game(5, 2), "erin", 4, "blue", table="t2", bettors=(("fay", 5),))
    assert table_differences(Log([at_t1, other, later])) == {
        game(9, 3): (
            f"offers[0]: stored seat 2 (player bob), expected seat 1 first: the offer "
            f"starts at seat 1 after game {game(1, 1)}",
        )
    }


def test_passed_over_only_after_two_in_a_row_and_the_backer_last() -> None:
    g = [game(i, i) for i in range(1, 4)]
    rounds = [
        stored(g[0], "alice", 1, "blue"),
        stored(
            g[1],
            "bob",
            2,
            "red",
            offers=(OfferStep("alice", 1, "passed_over"), OfferStep("bob", 2, "accepted", BANK)),
        ),
        stored(
            g[2],
            "dan",
            None,
            "blue",
            offers=(OfferStep("bob", 2, "declined"), OfferStep("dan", None, "accepted", BANK)),
        ),
    ]
    assert table_differences(Log(rounds)) == {
        g[1]: (
            "offers[0]: stored passed_over for player alice, expected an offer: they "
            "banked 1 of the rounds before it in a row (passed over after 2)",
        ),
        # carol bet at seat 3: she is offered the position before the backer.
        g[2]: (
            "offers[1]: stored the third-party banker (player dan), expected seat 3 "
            "first: the banker is offered the position after every seated player",
        ),
    }


def test_the_backer_banks_without_a_limit_and_the_start_moves_one_seat() -> None:
    backer = OfferStep("dan", None, "accepted", BANK)

    def declined(*seats: int) -> tuple[OfferStep, ...]:
        names = {1: "alice", 2: "bob", 3: "carol"}
        return (*(OfferStep(names[s], s, "declined") for s in seats), backer)

    seated = (("alice", 1), ("bob", 2), ("carol", 3))
    rounds = [
        stored(game(1, 1), "dan", None, "blue", offers=declined(1, 2, 3), bettors=seated),
        stored(game(2, 2), "dan", None, "red", offers=declined(2, 3, 1), bettors=seated),
        stored(game(3, 3), "dan", None, "blue", offers=declined(3, 1, 2), bettors=seated),
    ]
    assert table_differences(Log(rounds)) == {}
    rounds[2] = stored(game(3, 3), "dan", None, "blue", offers=declined(2, 3, 1), bettors=seated)
    assert table_differences(Log(rounds)) == {
        game(3, 3): (
            f"offers[0]: stored seat 2 (player bob), expected seat 3 first: the offer "
            f"starts at seat 3 after game {game(2, 2)}",
        )
    }
