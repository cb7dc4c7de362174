"""Server settings (environment) and the table configuration file (TOML)."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from uth.errors import InvalidRulesError
from uth.rules import RuleSet, resolve
from uth.server.ports import MAX_BALANCE


class Settings(BaseSettings):
    """Settings read from ``UTH_*`` environment variables.

    Attributes:
        database_url: SQLAlchemy URL; SQLite file ``uth.db`` by default,
            ``postgresql+psycopg://user@host/db`` for PostgreSQL.
        host, port: where ``uth serve`` listens.
        tables_file: the table configuration TOML; the packaged default opens one
            ``live`` table and one seven-seat ``casino`` table.
        operator_token: the token for operator routes. Required (16+ characters)
            outside development; in development a missing token disables them.
        environment: ``development`` or ``production``.
        shuffle_seed: development only: deal every table's decks from a seeded
            (predictable) shuffler, to reproduce a game. Logged as a warning at
            start-up; refused in production. Unset, the tables shuffle with the
            operating system's cryptographically secure generator (RULES.md,
            "Decks and shuffling").
    """

    model_config = SettingsConfigDict(env_prefix="UTH_", extra="ignore")

    database_url: str = "sqlite:///uth.db"
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    tables_file: Path | None = None
    operator_token: str | None = None
    environment: Literal["development", "production"] = "development"
    log_level: Literal["critical", "error", "warning", "info", "debug"] = "info"
    shuffle_seed: int | None = None

    @model_validator(mode="after")
    def _safe(self) -> Settings:
        if self.environment != "development" and self.shuffle_seed is not None:
            raise ValueError(
                "UTH_SHUFFLE_SEED: a seeded (predictable) shuffle is for development only; "
                "unset it in production"
            )
        if self.environment != "development" and (
            self.operator_token is None or len(self.operator_token) < 16
        ):
            raise ValueError(
                "UTH_OPERATOR_TOKEN: set a token of 16+ characters outside development"
            )
        return self


class TableConfig(BaseModel):
    """One table of the configuration file.

    Attributes:
        id: the table's id in URLs (``live-1``).
        name: the name shown in the lobby.
        names: the name in other languages, by language code (``ru = "..."``); the
            browser shows the one of the page's language, else ``name``.
        rules: a preset name or a path to a rule-set TOML file (relative to the
            tables file), read by :func:`uth.rules.resolve`.
        overrides: rule-set keys that replace the preset's (limits, for example).
            Numbers are read exactly from their text (see :func:`load_tables`).
        betting_seconds: the betting window; the light is green, then yellow for
            the last ``yellow_seconds``, then red (004).
        decision_seconds: the time for each decision (pre-flop, flop, river).
        pause_seconds: the pause after settlement before the next betting window.
        chips: the chip denominations offered, in currency units (positive, at most
            two decimal places).
        listed_bets: at most this many other players' bets are listed to a player.
        play_money: the table plays for play money (the default; every account is
            play money today). Trainer mode (issue 11) is allowed only at such tables.
        backer: card-room tables (a ``player_dealer`` rule set): the name of the
            third-party banker's account (the card room's licensed backer), offered
            the position when every seated player declines (RULES.md, "Who banks");
            the account is created at start-up if missing. None: no backer, and a
            round nobody banks is not dealt.
        offer_seconds: card-room tables: how long each player has to answer the
            offer of the player-dealer position (time-out: declined).
    """

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,39}$")
    name: str = ""
    names: dict[str, str] = Field(default_factory=dict)
    rules: str = "live"
    overrides: dict[str, Any] = Field(default_factory=dict)
    betting_seconds: float = Field(default=15, gt=0)
    yellow_seconds: float = Field(default=5, ge=0)
    decision_seconds: float = Field(default=10, gt=0)
    pause_seconds: float = Field(default=4, ge=0)
    chips: tuple[Annotated[Decimal, Field(gt=0, decimal_places=2)], ...] = (
        Decimal(1),
        Decimal(5),
        Decimal(25),
        Decimal(100),
        Decimal(500),
    )
    listed_bets: int = Field(default=20, ge=0)
    play_money: bool = True
    backer: str | None = Field(default=None, min_length=1, max_length=40)
    offer_seconds: float = Field(default=15, gt=0)

    @model_validator(mode="after")
    def _windows(self) -> TableConfig:
        if self.yellow_seconds > self.betting_seconds:
            raise ValueError("yellow_seconds must not exceed betting_seconds")
        return self

    def rule_set(self, base_dir: Path | None = None) -> RuleSet:
        """The table's rule set: the preset or file, with ``overrides`` applied.

        Raises:
            InvalidRulesError: unknown preset, bad file, or a bad override.
        """
        return resolve(
            self.rules, overrides=self.overrides, base_dir=base_dir, source=f"table {self.id}"
        )


class TablesFile(BaseModel):
    """The table configuration file: a starting balance and the tables."""

    model_config = ConfigDict(extra="forbid")

    starting_balance: Decimal = Field(default=Decimal(1000), ge=0, le=MAX_BALANCE, decimal_places=2)
    tables: list[TableConfig]

    @model_validator(mode="after")
    def _unique(self) -> TablesFile:
        ids = [t.id for t in self.tables]
        if len(set(ids)) != len(ids):
            raise ValueError(f"tables: duplicate table id in {ids}")
        if not ids:
            raise ValueError("tables: at least one table is required")
        return self


def load_tables(path: Path | None = None) -> TablesFile:
    """Read a table configuration file (the packaged default when ``path`` is None).

    Numbers with a fraction or an exponent (TOML floats) are read from their text as
    ``Decimal``, never through binary floats: ``min = 2.50`` is exactly
    ``Decimal("2.50")``, and ``0.10000000000000001`` is refused as an amount with more
    than two decimal places (not rounded to ``0.1``). The same as rule-set files.

    Raises:
        InvalidRulesError: the file is unreadable or invalid; names the field.
    """
    if path is None:
        text = resources.files("uth.server").joinpath("tables.toml").read_text("utf-8")
        source = "default tables.toml"
    else:
        source = str(path)
        try:
            text = path.read_text("utf-8")
        except OSError as exc:
            raise InvalidRulesError(
                f"{source}: cannot read: {exc.strerror}", field="file"
            ) from None
    try:
        data = tomllib.loads(text, parse_float=Decimal)
        tables = TablesFile.model_validate(data)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidRulesError(f"{source}: not valid TOML: {exc}", field="file") from None
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        value = err.get("input")
        shown = "" if isinstance(value, dict | list) else f" (got {value})"
        raise InvalidRulesError(f"{source}: {loc}: {err['msg']}{shown}", field=loc) from None
    base = path.parent if path is not None else None
    for i, table in enumerate(tables.tables):
        rules = table.rule_set(base)  # fail at start-up, not at the first round
        if table.backer is not None and rules.banking != "player_dealer":
            raise InvalidRulesError(
                f"{source}: tables.{i}.backer: only a table banked by a player-dealer has a "
                f"backer; {rules.name!r} is banked by the house",
                field=f"tables.{i}.backer",
            )
    return tables
