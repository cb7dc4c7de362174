"""Reservations: what a player may still bet, against the ledger balance."""

from __future__ import annotations

from decimal import Decimal

import pytest

from uth.server.ports import InsufficientFundsError
from uth.server.reservations import Reservations


def test_reservations_limit_what_may_be_bet() -> None:
    w = Reservations()
    w.set_balance(1, Decimal(100))
    w.reserve(1, Decimal(60))
    assert (w.balance(1), w.reserved(1), w.available(1)) == (100, 60, 40)
    with pytest.raises(InsufficientFundsError, match="41 needs funds, the balance available is 40"):
        w.reserve(1, Decimal(41))
    assert w.reserved(1) == 60  # nothing reserved by the refused call
    w.release(1, Decimal(60))
    assert (w.reserved(1), w.available(1)) == (0, 100)


def test_releasing_more_than_is_reserved_is_a_bug() -> None:
    w = Reservations()
    w.set_balance(1, Decimal(100))
    w.reserve(1, Decimal(10))
    with pytest.raises(ValueError, match=r"11 exceeds the 10\.00 reserved for player 1"):
        w.release(1, Decimal(11))
    assert w.reserved(1) == 10
