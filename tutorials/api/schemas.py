"""The API's bodies as ninja ``Schema``s: what each request may send and each answer holds.

Enums and patterns come from the engine (colours, rule keys, paces, strengths, the
notation's grammar), never written here a second time. The input schemas refuse unknown
keys and missing ones; values are judged by the engine, whose refusals (with their codes,
fields and clauses) a schema's validator raises as they are
(:class:`tutorials.api.endpoints.EngineAPI` hands them to the API's handler for
:class:`~captain.rules.errors.RulesError`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from ninja import Field, Schema
from pydantic import ConfigDict, PrivateAttr, StrictInt, WithJsonSchema, model_validator

from captain.rules import COLOURS, Colour
from captain.rules.captains.pace import Pace
from captain.rules.cases import META_KEYS
from captain.rules.errors import InvalidInput
from captain.rules.game import ACTION_TYPES, Phase
from captain.rules.model import MAX_ROWS
from captain.rules.notation import FACES_PATTERN
from captain.rules.notation import MAX_LENGTH as NOTATION_MAX_LENGTH
from captain.rules.notation import PATTERN as _NOTATION
from captain.rules.situation import (
    PLAYER_COUNTS,
    BellRule,
    Collection,
    Mode,
    RuleSet,
    SpeedOrder,
    check_table_rules,
)
from tutorials.models import CODE_ALPHABET
from tutorials.practice import games
from tutorials.services import TITLE_MAX_LENGTH, TITLE_PATTERN

NOTATION_PATTERN = f"^{_NOTATION}$"
CODE_OR_NOTATION_PATTERN = f"^(?:[{CODE_ALPHABET}]{{1,16}}|{_NOTATION})$"

_COLOURS = [c.value for c in COLOURS]
_NULLABLE_OBJECT = ["object", "null"]  # the engine reads null as "not given"


def _enum(values) -> list[str]:
    return [v.value for v in values]


RULES_SCHEMA: dict[str, Any] = {"type": _NULLABLE_OBJECT, "additionalProperties": False, "properties": {
    "speed_order": {"type": "string", "enum": _enum(SpeedOrder)},
    "collection": {"type": "string", "enum": _enum(Collection)},
    "mode": {"type": "string", "enum": _enum(Mode)},
    "bell": {"type": "string", "enum": _enum(BellRule)},
    "no_scouts": {"type": "boolean"},
    "place_after_reroll": {"type": "boolean", "description": "strategy mode only (STRAT-4)"}}}
assert set(RULES_SCHEMA["properties"]) == set(RuleSet.KEYS)

CASE_SCHEMA = {
    "type": "object",
    "required": ["players", "start_player", "board"],
    # unknown keys are refused (422); these descriptive ones are accepted and ignored
    "additionalProperties": False,
    "properties": {
        "players": {"type": "array", "minItems": min(PLAYER_COUNTS), "maxItems": max(PLAYER_COUNTS),
                    "uniqueItems": True, "items": {"type": "string", "enum": _COLOURS},
                    "description": "seated colours in clockwise order"},
        "start_player": {"type": "string", "enum": _COLOURS},
        "board": {"type": "array", "minItems": 1, "maxItems": MAX_ROWS, "items": {"type": "string"},
                  "description": "rows top to bottom, at most 12 tokens each, separated by "
                                 "spaces: '35', '--', '35:b1' (attack card), '35:B' (dice)"},
        "rules": RULES_SCHEMA,
        "deck": {"type": ["integer", "null"], "minimum": 0, "maximum": 999,
                 "description": "cards left in the deck"},
        "won": {"type": _NULLABLE_OBJECT,
                "description": "treasure cards won earlier, per seated colour",
                "propertyNames": {"enum": _COLOURS},
                "additionalProperties": {"type": "array", "items": {
                    "type": "string", "pattern": f"^{FACES_PATTERN}$"}}},
        **{key: {"description": "ignored (descriptive)"} for key in META_KEYS},
    },
    "example": {"players": ["red", "blue", "green", "white"], "start_player": "red",
                "board": ["12:b4 25 36 44:b5", "11 13 14 15", "16 22 23 24",
                          "26 33 34:r5 35"]},
}


# --- answers ------------------------------------------------------------------------


class Problem(Schema):
    field: str = Field(description="JSON path of the bad input ('board', 'players[1]', "
                                   "'notation', …), or '' for the whole body")
    position: list[int] | None = Field(description="[row, column] when on the board")
    offset: int | None = Field(description="0-based character offset in a notation")
    code: str = Field(description="stable machine-readable code, e.g. 'too-many-cards'")
    clause: str | None = Field(description="the rule that forbids it, e.g. 'SETUP-1' (/en/rules/#SETUP-1)")
    message: str = Field(description="one sentence in the request's language")


class ProblemsOut(Schema):
    detail: list[Problem]
    message: str


#: Every error an endpoint with a body can answer, in the problem shape.
ERRORS = {413: ProblemsOut, 415: ProblemsOut, 422: ProblemsOut}


class SolveOut(Schema):
    outcome: dict[str, Any] = Field(description="the outcome keys of the case format: "
                                                "removals, survivors, treasure, bell, "
                                                "board_after, game_over, standings, winner")
    events: list[dict[str, Any]] = Field(description="explanation events in order: "
                                                     "{code, clause, params[, interpretation]}")
    notation: str = Field(description="the position in short notation")


class RuleAnswerOut(Schema):
    clause: str = Field(description="the clause id, as on /<lang>/rules/ (BAT-2)")
    title: str = Field(description="the title of the rules section that holds it")
    text: str = Field(description="the clause's statement, in the answer's language")
    url: str = Field(description="the clause on the rules page, /<lang>/rules/#<clause>")
    reading: bool = Field(description="true for the site's reading of a point the official rules leave open")
    related: list[str] = Field(description="the clauses it leads on to")
    example: str | None = Field(description="an example board of it in the analyzer, where there is one")


class RuleSearchOut(Schema):
    query: str
    answered: bool = Field(description="false when the rules do not say: the results are then "
                                       "only the closest clauses")
    results: list[RuleAnswerOut] = Field(description="best first")


class SavedOut(Schema):
    code: str
    title: str
    created_at: str


class PositionOut(Schema):
    notation: str
    situation: dict[str, Any] = Field(description="the position as a case object")
    saved: SavedOut | None = Field(None, description="present when read from a short code")


class SavedPositionOut(Schema):
    code: str
    url: str = Field(description="the short link to share, /p/<code>/?k=<token> "
                                 "(its token lets it past the limit on unknown codes)")
    notation: str
    title: str


def _one_of(values: list[str], description: str, nullable: bool = False) -> Any:
    """A field whose value is one of ``values`` (or null), described."""
    extra: dict[str, Any] = {"enum": [*values, None] if nullable else values}
    return Field(description=description, json_schema_extra=extra)


class CardOut(Schema):
    colour: str = _one_of(_COLOURS, "the card's owner")
    value: int | None = Field(ge=0, le=5, description="the card's value: the learner's own cards "
                                                      "only, null while another's lies face down")


class CellOut(Schema):
    treasure: str | None = Field(description="the treasure card's faces, smaller first ('35'); "
                                             "null where the cell is empty")
    dice: str | None = _one_of(_COLOURS, "the colour of the dice on it", nullable=True)
    card: CardOut | None = Field(description="the attack card on it")


class SeatOut(Schema):
    colour: str = _one_of(_COLOURS, "the seated colour")
    captain: str | None = _one_of(list(games.STRENGTHS), "the computer captain's strength; "
                                  "null for the learner", nullable=True)
    hand: int = Field(ge=0, description="how many attack cards it holds")
    discard: int = Field(ge=0, description="how many attack cards lie on its discard pile")
    dice: list[int] = Field(description="the faces of its dice not on the board, ascending")
    rolled: bool = Field(description="true once this Dice Time's first roll happened")
    false_bell: bool = Field(description="it rang the bell wrongly this Dice Time (DICE-6)")
    won: list[str] = Field(description="the treasure cards it won, in the order won ('35')")


class ActionOut(Schema):
    """One of the learner's legal actions, as ``POST …/actions`` takes it back; the keys
    beyond ``type`` are those of its type."""

    type: str = _one_of([*ACTION_TYPES, games.CONTINUE["type"]], "what the action does")
    player: str | None = Field(None, description="the acting colour (absent for continue)",
                               json_schema_extra=dict[str, Any](enum=_COLOURS))
    dice: list[int] | None = Field(None, description="roll: the faces to roll again, null for all")
    position: list[int] | None = Field(None, description="claim and place: [row, column]")
    value: int | None = Field(None, description="place: the attack card's value")


class EventOut(Schema):
    code: str = Field(description="what happened, e.g. 'battle.remove'")
    clause: str = Field(description="the rule applied, e.g. 'BAT-3' (/en/rules/#BAT-3)")
    params: dict[str, Any] = Field(description="the event's details, by its code")
    interpretation: str | None = Field(None, description="present when a reading of the rules "
                                                         "(an INT clause) decided it")


class GameStateOut(Schema):
    """The game as the learner may see it: never another player's hand, discard or face-down
    card, the deck or box order, or the seed. A finished game read through its share token
    has no ``hand`` and ``discard``."""

    id: str
    version: int = Field(ge=0, description="changes with every action: send it with the next one")
    clock: float = Field(description="seconds of game time since the game started")
    engine_version: int = Field(description="the rules engine's version the game is played with")
    learner: str = _one_of(_COLOURS, "the learner's colour")
    rules: Annotated[dict[str, Any], WithJsonSchema({
        **RULES_SCHEMA, "type": "object",
        "description": "the rules that differ from the standard ones"})]
    pace: str | None = _one_of(_enum(Pace), "how fast the captains act", nullable=True)
    phase: str = _one_of(_enum(Phase), "where the game stands")
    round: int = Field(ge=1)
    start_player: str = _one_of(_COLOURS, "who begins this round's Dice Time")
    turn: str | None = _one_of(_COLOURS, "whose turn it is (strategy-mode Dice Time, Setting "
                               "Time); null where the players act at once", nullable=True)
    over: bool
    waiting_for_learner: bool = Field(description="true between rounds (and before the first) "
                                                  "until the learner continues")
    board: list[list[CellOut]] = Field(description="rows top to bottom")
    deck: int = Field(ge=0, description="cards left in the deck")
    box: int = Field(ge=0, description="treasure cards out of play (two players: SETUP-4)")
    seats: list[SeatOut] = Field(description="every seated player, in seating order")
    hand: list[int] | None = Field(None, description="the values of the learner's attack cards")
    discard: list[int] | None = Field(None, description="the values on the learner's discard pile")
    legal_actions: list[ActionOut] = Field(description="what the learner may do now")
    events: list[EventOut] = Field(description="the explanation of every action since `since`")


class GameOut(Schema):
    id: str
    key: str = Field(description="the learner's key: send it as X-Game-Key (shown once)")
    share_token: str = Field(description="shows the finished game read-only: ?share=<token>")
    state: GameStateOut = Field(description="the game as the learner may see it")


# --- requests -----------------------------------------------------------------------


class PositionIn(Schema):
    """A position to save (the analyzer's save form is
    :class:`tutorials.analyzer.forms.SavePositionForm`; both clean the title with
    :func:`tutorials.services.clean_title` when saving)."""

    model_config = ConfigDict(extra="forbid")

    # The schema gives the grammar only; the length limit (at most 2000 characters,
    # "too-long") is checked all the same. Length bounds beside a pattern made
    # schema-driven generators search for strings of impossible lengths.
    notation: Annotated[str, WithJsonSchema({
        "type": "string", "pattern": NOTATION_PATTERN,
        "description": "position notation, e.g. 'Rb_11r1.12-13b2.14' (at most 2000 characters); "
                       "read as every typed text: white space around it and invisible "
                       "format characters in it dropped, full-width characters folded"}),
    ] = Field(max_length=NOTATION_MAX_LENGTH)
    title: str = Field("", max_length=TITLE_MAX_LENGTH, json_schema_extra={"pattern": TITLE_PATTERN},
                       description="trimmed at both ends; invisible format characters (a byte "
                                   "order mark, direction marks and overrides, tag characters) "
                                   "removed, a line separator read as a space; no control "
                                   "characters; not only invisible characters")


def _described(schema: dict) -> Any:
    """A value the engine judges (its own codes reach the client), described by ``schema``."""
    return Annotated[Any, WithJsonSchema(schema)]


def _colour(value: object, where: str) -> Colour:
    return Colour.from_name(value, where=where, field=where)


_STRENGTH = {"type": "string", "enum": list(games.STRENGTHS)}


class GameIn(Schema):
    """A practice game to deal (the site's start form is
    :class:`tutorials.play.forms.PlayStartForm`). Every value is judged by the engine:
    :attr:`setup` is the game's setup (:func:`tutorials.practice.games.new_setup`)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "example": {"seats": ["red", "blue", "green"], "learner": "red", "strength": "greedy",
                    "rules": {"mode": "strategy"}}})

    seats: _described({"type": "array", "minItems": min(PLAYER_COUNTS), "maxItems": max(PLAYER_COUNTS),
                       "uniqueItems": True, "items": {"type": "string", "enum": _COLOURS},
                       "description": "seated colours in clockwise order"})
    learner: _described({"type": "string", "enum": _COLOURS, "description": "the learner's colour"})
    start_player: _described({"type": ["string", "null"], "enum": [*_COLOURS, None]}) = None
    rules: _described(RULES_SCHEMA) = None
    strength: _described({"description": "random, greedy or strong; or one per captain's colour",
                          "oneOf": [_STRENGTH, {"type": "object", "propertyNames": {"enum": _COLOURS},
                                                "additionalProperties": _STRENGTH}]}) = "greedy"
    pace: _described({"type": "string", "enum": _enum(Pace),
                      "description": "how fast the captains act in action mode"}) = Pace.TABLE.value
    seed: _described({"type": ["integer", "null"], "minimum": 0, "maximum": 2**31 - 1,
                      "description": "deals a chosen game (default: a random one)"}) = None

    _setup: dict = PrivateAttr(default_factory=dict)

    @property
    def setup(self) -> dict[str, Any]:
        return self._setup

    @model_validator(mode="after")
    def _judged(self) -> GameIn:
        """Raises :class:`InvalidInput` naming the field, as the engine words it."""
        seats = self.seats
        if not isinstance(seats, list) or not min(PLAYER_COUNTS) <= len(seats) <= max(PLAYER_COUNTS):
            raise InvalidInput("seats must be a list of 2 to 4 colours", where="seats", field="seats",
                               code="bad-seats")
        players = [_colour(c, f"seats[{i}]") for i, c in enumerate(seats)]
        if len(set(players)) != len(players):
            raise InvalidInput("a colour is seated twice", where="seats", field="seats", code="bad-seats")
        learner = _colour(self.learner, "learner")
        if learner not in players:
            raise InvalidInput(f"the learner's colour {learner.value} is not seated", where="learner",
                               field="learner", code="colour-not-seated", colour=learner.value)
        start = _colour(self.start_player, "start_player") if self.start_player is not None else None
        if start is not None and start not in players:
            raise InvalidInput("the start player must be seated", where="start_player",
                               field="start_player", code="colour-not-seated", colour=start.value)
        rules = check_table_rules(RuleSet.from_json(self.rules), len(players))
        captains = [c for c in players if c is not learner]
        strength = self.strength
        if isinstance(strength, str):
            strengths = {c: strength for c in captains}
        elif isinstance(strength, Mapping):
            strengths = {_colour(k, "strength"): v for k, v in strength.items()}
        else:
            raise InvalidInput("strength must be a strength or one per captain", where="strength",
                               field="strength", code="bad-strength")
        if (set(strengths) != set(captains)
                or not all(isinstance(v, str) and v in games.STRENGTHS for v in strengths.values())):
            raise InvalidInput(f"give each captain one of {', '.join(games.STRENGTHS)}", where="strength",
                               field="strength", code="bad-strength")
        try:
            pace = Pace(self.pace)
        except ValueError:
            raise InvalidInput(f"pace must be one of {', '.join(p.value for p in Pace)}", where="pace",
                               field="pace", code="bad-pace") from None
        seed = self.seed
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                                 or not 0 <= seed < 2**31):
            raise InvalidInput("seed must be a whole number from 0 to 2147483647", where="seed",
                               field="seed", code="bad-seed")
        self._setup = games.new_setup(players, learner, rules, strengths, pace, start_player=start,
                                      seed=seed)
        return self


class ActionIn(Schema):
    """The learner's action (the site's move form is :class:`tutorials.play.forms.MoveForm`)."""

    model_config = ConfigDict(extra="forbid")

    action: dict[str, Any] = Field(description="one of the state's legal_actions")
    version: StrictInt = Field(ge=0, description="the state's version the action was chosen at")
