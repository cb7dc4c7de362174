"""A display name belongs to one account: unique after NFKC normalisation and case
folding (``uth.server.storage.name_key``), in the store, the database and migration 0003.
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from helpers import live_server
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from uth.server.ports import DuplicateError, NameTakenError
from uth.server.storage import SqlStore, current_revision, make_engine, name_key, upgrade

D = Decimal
T0 = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("alice", "alice"),
        ("Alice", "alice"),
        ("  ALICE ", "alice"),
        ("ａｌｉｃｅ", "alice"),  # full-width letters (NFKC)
        ("Straße", "strasse"),  # case folding, not lower()
        ("ﬁsh", "fish"),  # the fi ligature (NFKC)
        ("Ωmega", "ωmega"),
        ("Ǆ", "dž"),  # one letter DŽ: NFKC splits it, then folded
        ("Ⅻ", "xii"),  # a Roman numeral: NFKC, then folded
    ],
)
def test_name_key(name: str, key: str) -> None:
    assert name_key(name) == key


def test_a_name_belongs_to_one_account(store: SqlStore) -> None:
    alice = store.create_player("Alice", "tok-1", D("1000"), T0)
    for other in ("alice", "ALICE", " alice ", "ａｌｉｃｅ"):
        with pytest.raises(NameTakenError) as info:
            store.create_player(other, f"tok-{other}", D("1000"), T0)
        assert (info.value.code, info.value.field) == ("name_taken", "name")
        assert str(info.value) == f"name: {other.strip()!r} is taken by another account"
        assert isinstance(info.value, DuplicateError)
    assert store.player_by_name("ＡＬＩＣＥ") == alice
    assert store.player_by_name("alice") == alice
    assert store.player_by_name("bob") is None
    bob = store.create_player("bob", "tok-2", D("5"), T0)
    assert store.player_by_name("Bob") == bob
    with store.engine.connect() as conn:
        rows = conn.execute(text("SELECT id, name, name_key FROM players ORDER BY id")).all()
    assert [tuple(r) for r in rows] == [(alice.id, "Alice", "alice"), (bob.id, "bob", "bob")]
    assert [e.amount for e in store.ledger(alice.id)] == [D("1000.00")]


def test_a_too_long_name_is_refused_naming_the_field(store: SqlStore) -> None:
    store.create_player("x" * 100, "tok-1", D("1"), T0)
    with pytest.raises(NameTakenError):
        store.create_player("X" * 100, "tok-2", D("1"), T0)
    with pytest.raises(Exception, match=r"^name: must be at most 100 characters$"):
        store.create_player("y" * 101, "tok-3", D("1"), T0)
    with pytest.raises(Exception, match=r"^name: must be at most 100 characters$"):
        store.create_player("\ufdfa" * 30, "tok-4", D("1"), T0)  # NFKC: 18 characters each


def test_the_database_refuses_a_second_account_with_the_same_name_key(
    store: SqlStore, store_url: str
) -> None:
    store.create_player("alice", "tok-1", D("1"), T0)
    engine = make_engine(store_url)
    try:
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO players (name, name_key, token_hash, created_at, balance)"
                    " VALUES ('ALICE', 'alice', 'h', :t, 0)"
                ),
                {"t": T0},
            )
    finally:
        engine.dispose()


def test_concurrent_sign_ins_with_one_name_open_one_account(store: SqlStore) -> None:
    results: list[str] = []
    barrier = threading.Barrier(4)

    def sign_in(i: int) -> None:
        barrier.wait()
        try:
            store.create_player(["ann", "Ann", "ANN", "ａｎｎ"][i], f"tok-{i}", D("10"), T0)
            results.append("created")
        except NameTakenError:
            results.append("name_taken")

    threads = [threading.Thread(target=sign_in, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["created", "name_taken", "name_taken", "name_taken"]
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM players")).scalar() == 1


def test_migration_0003_gives_a_shared_name_to_its_oldest_account(store_url: str) -> None:
    upgrade(store_url, "0002")
    engine = make_engine(store_url)
    try:
        with engine.begin() as conn:
            for pid, name in enumerate(["alice", "Bob", "ALICE", "ａｌｉｃｅ", "bob", "carol"], 1):
                conn.execute(
                    text(
                        "INSERT INTO players (name, token_hash, created_at, balance)"
                        " VALUES (:name, :h, :t, 100)"
                    ),
                    {"name": name, "h": f"h{pid}", "t": T0},
                )
        upgrade(store_url, "0003")
        assert current_revision(store_url) == "0003"
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT id, name, name_key FROM players ORDER BY id")).all()
        assert [tuple(r) for r in rows] == [
            (1, "alice", "alice"),
            (2, "Bob", "bob"),
            (3, "ALICE", None),
            (4, "ａｌｉｃｅ", None),
            (5, "bob", None),
            (6, "carol", "carol"),
        ]
        upgrade(store_url)  # today's store writes today's ledger (migration 0005: hands)
        store = SqlStore(engine)
        assert store.player_by_name("Alice") == store.player(1)
        with pytest.raises(NameTakenError):
            store.create_player("CAROL", "tok", D("1"), T0)
        assert store.create_player("dave", "tok", D("1"), T0).id == 7
    finally:
        engine.dispose()


def test_sign_in_with_a_taken_name_is_409_naming_the_field(store_url: str, tmp_path: Path) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("Alice")
        r = srv.client.post("/api/players", json={"name": "ALICE"})
        assert r.status_code == 409, r.text
        assert r.json() == {
            "error": {
                "code": "name_taken",
                "message": (
                    "name: 'ALICE' belongs to another account; sign in with its token "
                    "(kept by the browser that created it) or choose another name"
                ),
                "field": "name",
            }
        }
        assert srv.me(alice) == 1000
        assert srv.sign_in("Bob").id == alice.id + 1


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("\ud800", "name: Input should be a valid string, unable to parse raw data"),
        ("a\x7fb", "name: no control or invisible characters, got U+007F"),
        ("   ", "name: must not be blank"),
    ],
)
def test_sign_in_refuses_a_name_no_database_can_store(
    store_url: str, tmp_path: Path, name: str, message: str
) -> None:
    with live_server(store_url, tmp_path) as srv:
        r = srv.client.post(
            "/api/players",
            content=json.dumps({"name": name}),
            headers={"Content-Type": "application/json"},
        )
        assert r.status_code == 422, r.text
        assert r.json()["error"]["field"] == "name"
        assert r.json()["error"]["message"].startswith(message)
        assert srv.sign_in("alice").id == 1
