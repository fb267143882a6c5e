"""Practice games stored in the database, played as requests come.

A game is dealt by the engine from its seed; the log of timed actions replays it exactly
(:func:`captain.rules.captains.practice.replay`). On every request the server first plays
the captains' actions due by now (:func:`captain.rules.captains.practice.advance`), then
the learner's action — so a claim on a card a captain took a moment earlier is refused
with the rule's reason. Nothing plays the captains between requests: the learner's page
asks again when their next action is due (:func:`due_in`), and whichever request comes
first stores it; the row's version keeps each move exactly once (a store is made only from
the version read, and a request that lost the race reads the winner's record).

What the learner is shown (:func:`learner_view`) holds nothing a player at the table could
not see: no other hand, no face-down card of another player, no deck order, no seed.

Time is seconds since the game started, from an injectable clock (``now``: a
``datetime``; default the current time).
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from datetime import datetime
from types import MappingProxyType
from typing import Any

from django.utils import timezone

from captain.rules import Colour, IllegalAction, InvalidInput, RuleSet
from captain.rules.captains.pace import Pace
from captain.rules.captains.practice import (
    ENGINE_VERSION,
    Practice,
    TimedAction,
    advance,
    learner_acts,
    learner_continues,
    next_due,
    replay,
    start_practice,
    take_back,
)
from captain.rules.game import GameState, action_from_json, action_to_json, apply, legal_actions
from tutorials.models import PracticeGame, Stale, hash_key, insert_with_free_code, key_opens, new_code

STRENGTHS = ("random", "greedy", "strong")
#: The learner's pseudo-action between rounds: "I have read the result, go on".
CONTINUE = {"type": "continue"}
#: The learner's pseudo-action in strategy mode: undo my last move (and the answers to it).
TAKE_BACK = {"type": "take-back"}


class GameNotFound(Exception):
    """No game under this id, or the key does not open it, or it has expired."""


def _now(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()


# --- options ------------------------------------------------------------------------------
def new_setup(seats: Sequence[Colour], learner: Colour, rules: RuleSet, strengths: Mapping[Colour, str],
              pace: Pace, *, start_player: Colour | None = None, seed: int | None = None) -> dict[str, Any]:
    """The stored setup of a new game from choices already checked (the start form,
    :class:`tutorials.play.forms.PlayStartForm`, or the API's
    :class:`tutorials.api.schemas.GameIn`, both through the engine's
    :func:`~captain.rules.situation.check_table_rules`).

    ``seed`` deals a chosen game; without it, 128 random bits: the first rolls, which
    everyone sees, must not give the seed away (and with it the deck order and every future
    roll) to a search over all seeds.
    """
    return {"seats": [c.value for c in seats], "learner": learner.value,
            "start_player": start_player.value if start_player else None,
            "rules": rules.to_json(), "strengths": {c.value: v for c, v in strengths.items()},
            "pace": pace.value, "seed": secrets.randbits(128) if seed is None else seed,
            "captain_seed": secrets.randbelow(2**31)}


# --- the game and its record ---------------------------------------------------------------
def _deal(setup: Mapping[str, Any]) -> Practice:
    strengths = {Colour(k): v for k, v in setup["strengths"].items()}
    start = setup.get("start_player")
    return start_practice(tuple(Colour(c) for c in setup["seats"]), learner=Colour(setup["learner"]),
                          seed=setup["seed"], captain_seed=setup["captain_seed"],
                          rules=RuleSet.from_json(setup["rules"] or None), strength=strengths,
                          pace=Pace(setup["pace"]), start_player=Colour(start) if start else None)


#: The games last read or played in this process, by id: (version, game, events of the deal,
#: events of each log entry). A request for the same version skips the replay; another
#: worker, or a version this one has not seen, replays the log (the record is the truth).
_RECENT: OrderedDict[str, tuple[int, Practice, list[dict], list[list[dict]]]] = OrderedDict()
_RECENT_SIZE = 256
_RECENT_LOCK = threading.Lock()  # workers serve requests on several threads


def _remember(game: PracticeGame, practice: Practice, dealt_events: list[dict],
              entry_events: list[list[dict]]) -> None:
    with _RECENT_LOCK:
        _RECENT[game.code] = (game.version, practice, dealt_events, entry_events)
        _RECENT.move_to_end(game.code)
        while len(_RECENT) > _RECENT_SIZE:
            _RECENT.popitem(last=False)


def _replayed(game: PracticeGame) -> tuple[Practice, list[dict], list[list[dict]]]:
    with _RECENT_LOCK:
        recent = _RECENT.get(game.code)
        if recent is not None and recent[0] == game.version:
            _RECENT.move_to_end(game.code)
            return recent[1], recent[2], recent[3]
    dealt = _deal(game.setup)
    log = tuple(TimedAction(at, action_from_json(action), by) for at, action, by in game.log)
    state = dealt.dealt
    dealt_events = [e.to_json() for e in state.log]
    entry_events = []
    for entry in log:
        state = apply(state, entry.action)
        entry_events.append([e.to_json() for e in state.log])
    clocks = game.clocks or {}
    practice = Practice(
        state, dealt.learner, dealt.strengths, dealt.pace, dealt.captain_seed, dealt.dealt, log,
        clock=clocks.get("clock", 0.0), waiting_for_learner=clocks.get("waiting", True),
        next_tick=MappingProxyType({Colour(c): t for c, t in clocks.get("next_tick", {}).items()}),
        ticks=MappingProxyType({Colour(c): n for c, n in clocks.get("ticks", {}).items()}
                               or dict(dealt.ticks)))
    _remember(game, practice, dealt_events, entry_events)
    return practice, dealt_events, entry_events


def practice_of(game: PracticeGame) -> Practice:
    """The game as the engine's :class:`Practice`: the deal, the log replayed through the
    engine, the captains' clocks."""
    return _replayed(game)[0]


def _record(practice: Practice) -> dict[str, Any]:
    return {"log": [[e.at, action_to_json(e.action), e.by_learner] for e in practice.log],
            "clocks": {"clock": practice.clock, "waiting": practice.waiting_for_learner,
                       "next_tick": {c.value: t for c, t in practice.next_tick.items()},
                       "ticks": {c.value: n for c, n in practice.ticks.items()}}}


def start_game(setup: Mapping[str, Any], *, now: datetime | None = None
               ) -> tuple[PracticeGame, str, Practice]:
    """Create a game from its setup (:func:`new_setup`); returns the row, the learner's key
    (shown once, stored hashed) and the game. Expired games are deleted on the way."""
    practice = _deal(setup)
    key = secrets.token_urlsafe(24)
    started = _now(now)
    PracticeGame.delete_expired(started)
    game = PracticeGame(key_hash=hash_key(key), share_token=secrets.token_urlsafe(16), setup=setup,
                        engine_version=ENGINE_VERSION, started_at=started,
                        expires_at=PracticeGame.lifetime_end(started), marks=[0], **_record(practice))
    insert_with_free_code(game, new_code, "game id")
    return game, key, practice


def open_game(code: str, key: str | None = None, *, share: str | None = None,
              now: datetime | None = None) -> tuple[PracticeGame, bool]:
    """The game ``code`` and whether the learner opened it: with the learner's ``key``
    (True), or with the ``share`` token (False; read-only, and only once the game is
    over, which the caller checks). Raises :class:`GameNotFound` when there is no such
    game, neither opens it, or the game has expired."""
    game = PracticeGame.objects.filter(code=code).first()
    if game is None or game.expires_at <= _now(now):
        raise GameNotFound(code)
    if key_opens(game.key_hash, key):
        return game, True
    if share and hmac.compare_digest(game.share_token.encode(), share.encode()):
        return game, False
    raise GameNotFound(code)


def seconds(game: PracticeGame, now: datetime | None = None) -> float:
    """The game's clock: seconds since it started."""
    return max(0.0, (_now(now) - game.started_at).total_seconds())


def _save(game: PracticeGame, before: Practice, practice: Practice, seen: int, **more) -> None:
    """Store ``practice`` (which ``before`` led to, or a take-back of it) if the game is
    still at ``seen``; ``more``: other fields to write with it."""
    _old, dealt_events, entry_events = _replayed(game)
    record = _record(practice)
    game.change(seen, marks=[*game.marks, len(record["log"])], **record, **more)
    kept = min(len(before.log), len(practice.log))
    state, events = before.state, list(entry_events[:kept])
    if len(practice.log) < len(before.log):
        state = replay(practice.dealt, practice.log)
    for entry in practice.log[kept:]:
        state = apply(state, entry.action)
        events.append([e.to_json() for e in state.log])
    _remember(game, practice, dealt_events, events)


def catch_up(game: PracticeGame, practice: Practice, *, now: datetime | None = None) -> Practice:
    """Play the captains' actions due by now and store them (when another request did so
    first, that one's record stands and is returned)."""
    advanced = advance(practice, seconds(game, now))
    if len(advanced.log) == len(practice.log):
        return practice
    try:
        _save(game, practice, advanced, game.version)
    except Stale:
        game.refresh_from_db()
        return practice_of(game)
    return advanced


def due_in(game: PracticeGame, practice: Practice, *, now: datetime | None = None) -> float | None:
    """Seconds from ``now`` until the captains' next action may be due in ``practice`` (the
    engine's :func:`next_due`; 0 when one is due already), or ``None`` while the learner is
    to act or the game is over: the page asks again then, and a request plays what is due
    (:func:`catch_up`). Nothing else moves the game: no timer runs for it."""
    at = seconds(game, now)
    ahead = advance(practice, at)  # (a captain's tick that did nothing is not stored: counted here)
    if len(ahead.log) > len(practice.log):
        return 0.0  # a move due already, not stored yet
    due = next_due(ahead)
    return None if due is None else max(0.0, due - at)


def play(game: PracticeGame, practice: Practice, move: Mapping[str, Any], version: int, *,
         now: datetime | None = None) -> Practice:
    """The learner's move (an action as in ``legal_actions``, or ``{"type": "continue"}``),
    chosen at ``version``. Raises :class:`~tutorials.models.Stale` when the game has moved on since,
    :class:`~captain.rules.errors.IllegalAction` (with the clause) when the rules forbid it
    at this moment, :class:`InvalidInput` when it is not an action."""
    game.expect(version)
    at = seconds(game, now)
    if dict(move) == TAKE_BACK:
        back, undone = take_back(practice)
        entry = {"round": practice.state.round, "after": len(back.log),
                 "action": action_to_json(undone.action)}
        _save(game, practice, back, version, takebacks=[*game.takebacks, entry])
        return back
    if dict(move) == CONTINUE:
        if practice.state.is_over:
            raise IllegalAction("the game is over", clause="END-1", code="game-over")
        if not practice.waiting_for_learner:
            raise InvalidInput("there is nothing to continue now", where="action", field="action",
                               code="nothing-to-continue")
        new = learner_continues(practice, at)
    else:
        action = action_from_json(dict(move))
        new = learner_acts(practice, action, at)
    _save(game, practice, new, version)
    return new


# --- what the learner sees -------------------------------------------------------------------
def _cell(cell, learner: Colour, state: GameState) -> dict[str, Any]:
    card = None
    if cell.card is not None:
        # attack cards lie face down on the board until Battle Time turns them up
        card = {"colour": cell.card.colour.value,
                "value": int(cell.card.kind) if cell.card.colour is learner else None}
    return {"treasure": str(cell.treasure) if cell.treasure else None,
            "dice": cell.dice.colour.value if cell.dice else None, "card": card}


def learner_actions(practice: Practice) -> list[dict[str, Any]]:
    """What the learner may do now: the engine's legal actions, and ``continue`` between
    rounds."""
    state = practice.state
    out = [] if state.is_over else [action_to_json(a) for a in legal_actions(state, practice.learner)]
    if practice.waiting_for_learner and not state.is_over:
        out.append(dict(CONTINUE))
    return out


def events_since(game: PracticeGame, since: int | None) -> list[dict[str, Any]]:
    """The explanation events of every action after version ``since`` (all, the deal's
    included, without it, or when a move was taken back since)."""
    _practice, dealt_events, entry_events = _replayed(game)
    marks = game.marks or [0]
    if since is None or 0 <= since < len(marks) and min(marks[since:]) < marks[since]:
        # (a move taken back since then: the client starts again from the deal)
        return [*dealt_events, *(e for entry in entry_events for e in entry)]
    start = marks[since] if 0 <= since < len(marks) else len(entry_events)
    return [e for entry in entry_events[start:] for e in entry]


def learner_view(game: PracticeGame, practice: Practice, *, since: int | None = None,
                 shared: bool = False) -> dict[str, Any]:
    """The game as the learner may see it (a finished game shared read-only: as anyone
    may). Never holds the seed, the deck or box order, another player's hand or discard,
    or another player's face-down cards."""
    state, learner = practice.state, practice.learner
    seats = []
    for p in state.players:
        seats.append({"colour": p.colour.value,
                      "captain": practice.strengths.get(p.colour),
                      "hand": len(p.hand), "discard": len(p.discard),
                      "dice": list(p.dice), "rolled": p.rolled, "false_bell": p.false_bell,
                      "won": [str(t) for t in p.won]})
    me = state.player(learner)
    view: dict[str, Any] = {
        "id": game.code, "version": game.version, "clock": round(practice.clock, 3),
        "engine_version": game.engine_version, "learner": learner.value,
        "rules": game.setup.get("rules") or {}, "pace": game.setup.get("pace"),
        "phase": state.phase.value, "round": state.round, "start_player": state.start_player.value,
        "turn": state.turn.value if state.turn else None, "over": state.is_over,
        "waiting_for_learner": practice.waiting_for_learner,
        "board": [[_cell(c, learner, state) for c in row] for row in state.board.rows],
        "deck": len(state.deck), "box": len(state.box), "seats": seats,
        "hand": [int(k) for k in me.hand], "discard": [int(k) for k in me.discard],
        "legal_actions": [] if shared else learner_actions(practice),
        "events": events_since(game, since),
    }
    if shared:
        view.pop("hand"), view.pop("discard")
    return view
