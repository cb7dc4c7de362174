from uth.cards import parse_cards
from uth.evaluator import Category, evaluate


def test_royal_flush_on_seven_cards() -> None:
    hand = evaluate(parse_cards("As Ks Qs Js Ts 2c 3d"))
    assert hand.category is Category.ROYAL_FLUSH
    assert [str(c) for c in hand.best_five] == ["As", "Ks", "Qs", "Js", "Ts"]
