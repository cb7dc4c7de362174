"""What a table machine tells its players: the ``state``, the ``snapshot``, the
table's bets, and each engine event to those allowed to see it
(:mod:`uth.engine.views`, the one definition of who sees what).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, cast

from uth.engine import events as ev
from uth.engine.round import Phase
from uth.engine.table.base import STREETS, TableState
from uth.engine.table.commands import (
    CommandError,
)
from uth.engine.table.effects import (
    Send,
)
from uth.engine.table.seats import SPOTS, Seat, account_of, cost, second_hand
from uth.engine.views import event_audience, name_hand, seat_view, seat_wagers
from uth.engine.wagers import BetSpot, least_play, spot_limit
from uth.money import ZERO, money_json


class TableMessages(TableState):
    """The machine's messages (a part of :class:`~uth.engine.table.TableMachine`)."""

    def _all_hands(self) -> list[Seat]:
        """Every hand at the table: the players' own, then seated players' back-line hands."""
        return [*self.seats.values(), *self.lines.values()]

    def _seat_of(self, hand_id: str) -> Seat | None:
        """The seat (or back-line hand) of an engine hand id; None when gone."""
        pid = account_of(hand_id)
        if second_hand(hand_id) is None:
            return self.seats.get(pid)
        line = self.lines.get(pid)
        return line if line is not None and line.hand_id == hand_id else None

    def _dealt_in(self, player_id: int) -> bool:
        """The player has a hand (their own or a back-line hand) in the current round."""
        rnd = self.round
        if rnd is None:
            return False
        line = self.lines.get(player_id)
        return rnd.has_hand(str(player_id)) or (line is not None and rnd.has_hand(line.hand_id))

    def _play_hold(self, seat: Seat, bets: dict[str, Decimal]) -> Decimal:
        """The Play reserved with a back-line hand's bets: the largest Play its Ante
        can follow (the rule set's largest multiple; 4x in California), since another
        player decides it (issue 13). Nothing for a hand at its own seat.
        """
        if self._room is None or seat.number is not None or seat.behind is None:
            return ZERO
        multiples = self.rules.play_multiples
        return max((*multiples.pre_flop, *multiples.flop, *multiples.river)) * bets["ante"]

    def _in_round(self, seat: Seat) -> bool:
        rnd = self.round
        return (
            rnd is not None
            and rnd.phase not in (Phase.SETTLED, Phase.VOIDED)
            and rnd.has_hand(seat.hand_id)
        )

    def _holds_hand(self, seat: Seat) -> bool:
        """The player has a hand in the table's current round, in play or settled
        (not voided): its wagers are shown until the next betting window.
        """
        rnd = self.round
        return (
            rnd is not None
            and not self._round_voided
            and rnd.phase != Phase.VOIDED
            and rnd.has_hand(seat.hand_id)
        )

    def state(self, player_id: int) -> dict[str, Any]:
        """A seated player's own state: bets, balance, legal actions and the
        buttons' state (docs/protocol.md, "state"). In a round the bets and legal
        actions are those of the player's :func:`~uth.engine.views.seat_view`
        (:func:`~uth.engine.views.seat_wagers`); while betting
        is open, the bet slip (the chips on the layout, checked by the engine when
        betting closes). At a card room, ``behind`` for a player without a seat whose
        bets (or hand in the round) are behind a seat: that seat's number; and
        ``back_line`` for a seated player's second hand behind another seat.
        """
        seat = self.seats[player_id]
        available = self.funds.available(player_id)
        rnd = self.round
        in_round = self._holds_hand(seat)
        amounts = {**seat.bets, "blind": seat.bets["ante"], "play": ZERO}
        legal: list[str] = []
        if in_round and rnd is not None:  # the wagers in play: as the player's seat view
            amounts, actions = seat_wagers(rnd, seat.hand_id, available=available)
            legal = list(actions)
        bets = {kind: money_json(amount) for kind, amount in amounts.items()}
        total = sum(amounts.values(), ZERO)
        betting = self.phase == "betting"
        out: dict[str, Any] = {
            "phase": self.phase,
            "balance": money_json(available),
            "bets": bets,
            "total_bet": money_json(total),
            "legal_actions": legal,
            "can_undo": betting and bool(seat.undo),
            "can_double": betting
            and not seat.doubled
            and seat.bets["ante"] > 0
            and cost(self._doubled(seat)) - seat.staked <= available,
            "can_repeat": betting
            and (last := self._last_bets.get(player_id)) is not None
            and cost(last) <= available
            and seat.staked == 0,
            "decisions": list(seat.decisions) if in_round else [],
            "hand": self._hand(seat) if in_round else None,
        }
        least = least_play(self.rules, seat.bets["ante"])
        if betting and seat.bets["ante"] > 0 and available < least:
            out["warning"] = "balance_low_for_play"
        if seat.number is None and seat.behind is not None and (in_round or seat.staked > 0):
            out["behind"] = seat.behind  # a back-line bettor without a seat: the seat followed
        line = self.lines.get(player_id)
        if line is not None:
            out["back_line"] = self._line_state(line, available)
        return out

    def _line_state(self, line: Seat, available: Decimal) -> dict[str, Any]:
        """A seated player's back-line hand in their ``state`` (docs/protocol.md,
        "Card-room tables"): the seat it is behind, its bets (the wagers in play once
        dealt) and its bet-slip buttons.
        """
        rnd = self.round
        betting = self.phase == "betting"
        amounts = {**line.bets, "blind": line.bets["ante"], "play": ZERO}
        if self._holds_hand(line) and rnd is not None:
            amounts = dict(seat_view(rnd, line.hand_id, available=available).bets)
        last = self._line_last_bets.get(line.player_id)
        doubled = self._doubled(line)
        return {
            "behind": line.behind,
            "bets": {kind: money_json(amount) for kind, amount in amounts.items()},
            "total_bet": money_json(sum(amounts.values(), ZERO)),
            "can_undo": betting and bool(line.undo),
            "can_double": betting
            and not line.doubled
            and line.bets["ante"] > 0
            and cost(doubled) + self._play_hold(line, doubled) - line.staked - line.play_hold
            <= available,
            "can_repeat": betting
            and last is not None
            and cost(last) + self._play_hold(line, last) <= available
            and line.staked == 0,
        }

    def _hand(self, seat: Seat) -> dict[str, Any] | None:
        """The player's hand so far, once dealt (:func:`~uth.engine.views.name_hand`)."""
        rnd = self.round
        if rnd is None or rnd.phase in (Phase.BETTING, Phase.VOIDED):
            return None
        hole = rnd.hole_cards(seat.hand_id)
        if not hole:
            return None
        # Only the cards the players were sent; named once per hand and street (on
        # a shared-hand table every player holds the same cards).
        key = (hole, self._board_shown)
        named = self._hand_names.get(key)
        if named is None:
            named = name_hand(hole, rnd.board[: self._board_shown]).to_json()
            self._hand_names[key] = named
        return named

    def snapshot(self, player_id: int) -> dict[str, Any]:
        """Everything a (re)connecting player needs: phase, timers, own cards and bets,
        the shared player hand (shared-hand tables), the board so far, the dealer's
        hand once the settlement is stored, balance, and other players' bets.

        The cards are the player's :func:`~uth.engine.views.seat_view` (the one
        definition of who sees what), as far as they were sent: the board as
        published, the dealer's hand only once the round's settlement is stored
        (a round that never reaches storage is voided unseen).
        """
        seat = self.seats[player_id]
        rnd = self.round
        own_cards: list[str] = []
        board: list[str] = []
        player_hand: list[str] = []
        dealer: dict[str, Any] | None = None
        if rnd is not None:
            view = seat_view(rnd, seat.hand_id)
            own_cards = [str(c) for c in view.hole_cards]
            board = [str(c) for c in view.board[: self._board_shown]]
            player_hand = [str(c) for c in view.player_hand]
            if view.dealer is not None and self._settlement_stored():
                dealer = view.dealer.to_json()
        return {
            "type": "snapshot",
            "table": self._table_info(),
            "player": {"id": player_id, "name": seat.name, "seat": seat.number},
            "game_number": self.game_number,
            "phase": self.phase,
            "light": self.light,
            **self._timer(),
            "hole_cards": own_cards,
            "player_hand": player_hand,
            "board": board,
            "dealer": dealer,
            "state": self.state(player_id),
            "table_bets": self.table_bets(),
            "last_result": self._last_result.get(player_id),
            "paused": self.paused,
            "last_bets": _bets_json(self._last_bets.get(player_id)),
            **(
                {"last_back_line_result": line_result}
                if (line_result := self._line_result.get(player_id)) is not None
                else {}
            ),
            **({"trainer": coached} if (coached := self._trainer_view(seat)) else {}),
            **self.room_fields(),
            **self.room_snapshot_fields(player_id),
        }

    def room_fields(self) -> dict[str, Any]:
        """A card room's ``player_dealer`` and ``turn`` (none at a house-banked table:
        see :class:`~uth.engine.table.cardroom.CardRoom`).
        """
        return {}

    def room_snapshot_fields(self, player_id: int) -> dict[str, Any]:
        """A card room's ``seats`` and ``offer`` for the snapshot (none at a
        house-banked table: see :class:`~uth.engine.table.cardroom.CardRoom`).
        """
        return {}

    def _seats_note(self, *, after_reply: bool = False) -> None:
        """A card room's ``seats`` message to everyone (nothing at a house-banked
        table: see :class:`~uth.engine.table.cardroom.CardRoom`).
        """

    def _bank_left_note(self, event: ev.WagerSettled, following: ev.Event | None) -> None:
        """A card room's ``bank_left`` message once a hand's wagers are settled
        (nothing at a house-banked table: see :class:`~uth.engine.table.cardroom.CardRoom`).
        """

    def _settlement_stored(self) -> bool:
        """The round's settlement is stored: its showdown may be shown."""
        return self.phase in ("settled", "pause") and not self._round_voided

    def table_bets(self) -> dict[str, Any]:
        """Every player's bets: how many players bet (a seated player also betting
        behind another seat counts once), the total, and the largest
        ``listed_bets`` hands listed with their player ids (one message for
        everyone; a client leaves out its own rows and amounts).
        """
        rows = []
        for s in self._all_hands():
            bets = s.bets
            if self._holds_hand(s) and self.round is not None:
                w = self.round.wagers(s.hand_id)
                bets = {"ante": w.ante, "trips": w.trips, "bad_beat": w.bad_beat}
            total = cost(bets)
            if total > 0:
                rows.append((total, s, bets))
        rows.sort(key=lambda r: (-r[0], r[1].player_id))
        listed = [
            {
                "id": s.player_id,
                "name": s.name,
                "seat": s.number,
                "ante": money_json(b["ante"]),
                "trips": money_json(b["trips"]),
                "bad_beat": money_json(b["bad_beat"]),
                "total": money_json(total),
                **({"behind": s.behind} if s.behind is not None else {}),
            }
            for total, s, b in rows[: self.settings.listed_bets]
        ]
        return {
            "players": len({s.player_id for _, s, _ in rows}),  # two hands: one player
            "total": money_json(sum((r[0] for r in rows), ZERO)),
            "listed": listed,
        }

    def _timer(self) -> dict[str, Any]:
        now = self.now
        if self.deadline is None:
            return {"now": now.isoformat(), "deadline": None, "seconds_left": None}
        left = max(0.0, (self.deadline - now).total_seconds())
        return {
            "now": now.isoformat(),
            "deadline": self.deadline.isoformat(),
            "seconds_left": round(left, 1),
        }

    def _send(self, player_id: int, message: dict[str, Any]) -> None:
        self._effects.append(Send(player_id, message))

    def _broadcast(self, message: dict[str, Any]) -> None:
        self._effects.append(Send(None, message))

    def publish(self) -> None:
        """Send each new engine event to the players allowed to see it.

        Called after a command's reply is sent, so that the reply comes first. The
        showdown is held back until the round's settlement is stored: a round that
        never reaches storage is voided, and nobody has seen its dealer's cards.
        """
        outbox, self._outbox = self._outbox, []
        for owner, note in outbox:  # owner None: everyone
            self._effects.append(Send(owner, note))
        rnd = self.round
        if rnd is None:
            return
        events = rnd.events_since(self._published)
        for i, event in enumerate(events):
            if isinstance(event, ev.DealerRevealed) and self.phase != "settled":
                return
            self._published += 1
            if isinstance(event, ev.FlopTurned | ev.TurnAndRiverTurned):
                self._board_shown += len(event.cards)
            if isinstance(event, ev.WagersPlaced | ev.WagersWithdrawn | ev.RoundOpened):
                continue  # no messages of the protocol: the table's own state says them
            if isinstance(event, ev.WagerSettled):
                self._bank_left_note(event, events[i + 1] if i + 1 < len(events) else None)
            if isinstance(event, ev.WagerSettled | ev.RoundSettled):
                continue  # sent as one settlement message per player
            # Who sees it: the one definition (engine.views). Seen by a spectator:
            # everyone; else its owner and the back-line bets riding on it (each
            # player once, the message unchanged); face-down cards by nobody.
            hands = event_audience(rnd, event)
            if hands == ():
                continue
            message = {
                "type": event.type,
                **{k: v for k, v in event.to_dict().items() if k != "type"},
            }
            if hands is not None:
                sent: set[int] = set()
                for hand in hands:
                    pid = account_of(hand)
                    if pid in self.seats and pid not in sent:
                        sent.add(pid)
                        self._send(pid, message)
            elif isinstance(event, ev.BettingClosed):
                # A count, not the list of every hand: one message for everyone.
                common = {
                    "type": event.type,
                    "game_number": self.game_number,
                    "hands": len(event.hands),
                }
                dealt_in = {**common, "in_round": True}
                watching = {**common, "in_round": False}
                for seat in self.seats.values():
                    self._send(
                        seat.player_id, dealt_in if self._dealt_in(seat.player_id) else watching
                    )
            elif isinstance(event, ev.AntesReturned):
                self._broadcast({"type": event.type, "hands": len(event.players)})
            else:
                if isinstance(event, ev.DealerRevealed):
                    message["announcement"] = event.announcement
                self._broadcast(message)

    def _trainer_view(self, seat: Seat) -> dict[str, Any] | None:
        rnd = self.round
        street = str(rnd.phase) if rnd is not None and rnd.phase in STREETS else None
        return self.coach.snapshot(seat.player_id, street, self.game_number)

    def _declined(self, code: str, reason: str, field: str | None = None) -> dict[str, Any]:
        """A ``bets_declined`` message: ``code`` says why for the client (``left``,
        ``hidden``, ``closed``, ``outside_limits`` with the wager's ``field``,
        ``insufficient_funds``); ``reason`` is for people reading logs.
        """
        message = {
            "type": "bets_declined",
            "game_number": self.game_number,
            "code": code,
            "reason": reason,
        }
        if field is not None:
            message["field"] = field
        return message

    def _limit(self, spot: str) -> tuple[Decimal, Decimal]:
        limit = spot_limit(self.rules, cast("BetSpot", spot))
        if limit is None:
            raise CommandError("over_limit", f"spot: {spot} is not offered at this table")
        return limit.min, limit.max

    def _doubled(self, seat: Seat) -> dict[str, Decimal]:
        """The seat's bets doubled, each up to its spot's maximum."""
        return {
            spot: min(2 * amount, self._limit(spot)[1]) if amount else amount
            for spot, amount in seat.bets.items()
        }


def _bets_json(bets: dict[str, Decimal] | None) -> dict[str, int | float] | None:
    return None if bets is None else {spot: money_json(bets[spot]) for spot in SPOTS}
