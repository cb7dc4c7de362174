"""Random commands, clock moves, operator requests and storage failures through the
table machine; after every step money is conserved (machine_host.Host.check_money),
every stored round replays to its stored result and ledger entries
(Host.check_replays, engine.history), no player has been sent a card their view
does not allow (RULES.md, "Online
table": their own hole cards, the shared hand, the board as turned, the dealer's
cards once the round is settled; never another player's cards or the deck), and each
hand's cards, showdown, fold and decisions sent reached exactly the players their view
allows (machine_host.check_hand_events).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from machine_host import Host, StorageDown, cards_in, check_hand_events, mark

from uth.cards import SeededShuffler, SingleDeck
from uth.engine.table import Decide, Double, Leave, PlaceBet, Repeat, Snapshot, Undo
from uth.engine.table import effects as fx

PLAYERS = (1, 2, 3)
STEPS = 80
#: What a step does, with its weight (out of 100).
WEIGHTS = {
    "bet": 22,
    "decide": 22,
    "wait": 20,
    "operator": 6,
    "undo": 4,
    "double": 4,
    "repeat": 4,
    "tick": 4,
    "join": 4,
    "snapshot": 3,
    "hide": 3,
    "leave_conn": 2,
    "storage": 2,
}
KINDS = tuple(kind for kind, weight in WEIGHTS.items() for _ in range(weight))


def _check_cards(h: Host, pid: int, messages: list[dict[str, Any]]) -> None:
    allowed = h.allowed_cards(pid)
    for message in messages:
        shown = set(cards_in(message))
        assert shown <= allowed, (pid, message["type"], shown - allowed)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=st.sampled_from(["live", "casino"]), seed=st.integers(0, 2**31))
def test_random_play_conserves_money_and_shows_no_hidden_card(
    data: st.DataObject, rules: str, seed: int
) -> None:
    procedure = SingleDeck(SeededShuffler(seed))
    decks = [procedure.next_deck() for _ in range(STEPS)]
    balances = {1: Decimal(300), 2: Decimal(300), 3: Decimal(45)}
    h = Host(rules, balances=balances, decks=list(decks))
    ids = iter(range(10**6))
    for pid in PLAYERS:
        _check_cards(h, pid, [h.join(pid)])
    for _ in range(STEPS):
        m = h.machine
        start = mark(m)
        kind = KINDS[data.draw(st.integers(0, len(KINDS) - 1))]
        awaiting = [int(h) for h in m.round.awaiting()] if m.round is not None else []
        # a decision is most often one that is awaited
        pid = data.draw(st.sampled_from(awaiting if kind == "decide" and awaiting else PLAYERS))
        seated = pid in m.seats
        replies: list[dict[str, Any]] = []
        rid = f"r{next(ids)}"
        if kind == "join":
            replies.append(h.join(pid))
        elif kind == "leave_conn" and seated and m.seats[pid].connections:
            h.disconnect(pid)
        elif kind == "bet":
            spot = data.draw(st.sampled_from(["ante", "ante", "trips", "bad_beat"]))
            amount = data.draw(st.sampled_from([1, 5, 10, 25, "2.50"]))
            replies.append(h.send(pid, PlaceBet(rid, spot, amount)))
        elif kind == "undo":
            replies.append(h.send(pid, Undo(rid)))
        elif kind == "double":
            replies.append(h.send(pid, Double(rid)))
        elif kind == "repeat":
            replies.append(h.send(pid, Repeat(rid)))
        elif kind == "decide":
            legal = m.state(pid)["legal_actions"] if seated else []
            action = data.draw(st.sampled_from([*legal, "play_4x", "fold"]))
            street = data.draw(st.sampled_from([None, m.phase]))
            replies.append(h.send(pid, Decide(rid, action, street)))
        elif kind == "hide":
            replies.append(
                h.send(pid, Leave(rid, data.draw(st.sampled_from(["hidden", "closed"]))))
            )
        elif kind == "snapshot":
            replies.append(h.send(pid, Snapshot(rid)))
        elif kind == "wait" and (m.deadline or m.wake_at) is not None:
            # to the window's end (the betting window wakes once a second before it)
            until = m.deadline if m.deadline is not None and m.deadline > h.now else m.wake_at
            if until is not None:
                h.advance(max(0.0, (until - h.now).total_seconds()))
        elif kind == "tick":
            h.advance(data.draw(st.sampled_from([0.5, 1.0, 2.5])))
        elif kind == "operator" and m.game_number is not None:
            what = data.draw(st.sampled_from(["pause", "resume", "resume", "void"]))
            if what == "pause":
                m.request_pause(m.game_number, "operator check", "operator")
            elif what == "resume":
                m.request_resume(m.game_number)
            else:
                m.request_void(m.game_number, "operator void", "operator")
            h.run()
        elif kind == "storage":
            call = data.draw(st.sampled_from([fx.DebitWagers, fx.SettleRound, fx.OpenRound]))
            h.fail_next(call, StorageDown("unreachable"))
        h.check_money()
        h.check_replays()
        received = {p: h.take(p) for p in PLAYERS}
        for p in PLAYERS:
            _check_cards(h, p, received[p])
        _check_cards(h, pid, replies)
        check_hand_events(m, start, received)
