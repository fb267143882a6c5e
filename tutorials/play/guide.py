"""The guided games: a real practice game in which the page points at one move at a time.

A guided game is an ordinary practice game (dealt at random, the captains deciding as
always) whose setup says ``guide``: ``strategy`` for the first one (turn by turn), ``action``
for the second (real time at the first-game pace). Nothing about it is scripted: at each
moment the learner has something to do, the pointer is the hint of that moment
(:mod:`tutorials.play.hints`: the strong captain's move and the facts the engine confirms),
and the page marks on the board, or on the form, what to choose for it. The learner makes
every move, and may make another one.

The first time a thing comes up in the game — the first claim, the first re-roll, the first
sandwich within reach, a line that would end Dice Time, Setting Time, a [0], Battle and
Treasure Time, the next round, the end — the pointer opens with a few sentences on how it
works, citing the rules. "The first time" is read off the game's own log (the learner's
moves so far and the rounds played), so a guided game needs no state of its own and goes
on where it was left.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from captain.rules import Position
from captain.rules.captains.facts import move_facts
from captain.rules.game import Claim, Pass, PlaceAttackCard, RingBell, RingStartBell, Roll, apply
from captain.rules.situation import Mode
from tutorials.play.hints import Hint, hints_for, pointer_kind
from tutorials.wording.facts import facts
from tutorials.wording.phrases import sentences

#: the guided games, in the order the play page offers them
GUIDES = ("strategy", "action")

#: what each topic teaches the first time it comes up, and the clauses it rests on; a
#: topic with a mode of its own is looked up as ``<topic>/<mode>`` first
NOTES = {
    "start": (_("A guided game: you play red against two computer captains. Whenever you have a "
                "move to make, this box points at one and says why; the first time something "
                "new comes up, it says how it works. You make every move, and you may always "
                "choose another."), ("SETUP-3",)),
    "begin/strategy": (_("When Dice Time begins, everyone rolls all %(dice)s dice at once. Then turns "
                         "go clockwise from the start player, and that is you."), ("STRAT-1",)),
    "begin/action": (_("You are the start player: ring the bell, and everyone rolls all %(dice)s "
                       "dice at once. From then on nobody waits for a turn."), ("DICE-1",)),
    "claim/strategy": (_("On your turn you may claim a card: put two of your dice on it that show "
                         "exactly its two faces. A card that already holds dice is taken."),
                       ("DICE-2", "STRAT-2")),
    "claim/action": (_("Claim a card as soon as two of your dice show its two faces: put them on "
                       "it. Be quick: a captain may take it first."), ("DICE-2",)),
    "roll/strategy": (_("Instead of claiming, you may re-roll any of your dice in hand, once a "
                        "turn. The dice you keep stay as they are."), ("STRAT-2",)),
    "roll/action": (_("No pair fits? Re-roll all the dice still in your hand, as often as you "
                      "like. Dice already on cards stay there."), ("DICE-3",)),
    "sandwich": (_("If two of your attack cards on one row, column or diagonal both survive Battle "
                   "Time, you also win the free treasure cards between them, unless another player's "
                   "card lies between: a sandwich."), ("TRE-2",)),
    "line.fills/strategy": (_("Once every card of a row, column or diagonal holds dice, Dice Time "
                              "ends at once, and whoever placed the last pair becomes the start "
                              "player."), ("STRAT-3",)),
    "line.fills/action": (_("Once a row, column or diagonal holds dice on %(bell_cards)s of its cards, "
                            "anyone may ring the bell: Dice Time ends, and whoever rang becomes the start "
                            "player."), ("DICE-4",)),
    "ring": (_("The bell may ring now: ring it to end Dice Time and become the start player. "
               "Ringing while it may not is a false bell: you would sit out the rest of Dice Time."),
             ("DICE-4", "DICE-6")),
    "place": (_("Setting Time: in turn from the start player, put one attack card face down on a "
                "card that holds your dice, and take those dice back. Nobody sees it until Battle "
                "Time."), ("SET-1",)),
    "speed.first": (_("In Battle Time the cards act in order of speed, the number on the card, "
                      "%(fastest)s first. A card that acts removes the other players' cards in its "
                      "range (never a [0]); a card removed before its turn does nothing."),
                    ("BAT-1", "BAT-3", "BAT-4")),
    "immune": (_("The [0] Hostage Gambit attacks nothing, but no card can remove it."), ("BAT-4",)),
    "hand.recycle": (_("Your hand is empty: you take your whole discard pile back before you "
                       "place."), ("SET-4",)),
    "battle": (_("Battle Time: all the attack cards are turned up and act one by one, in order "
                 "of speed. Step through them: each step says what the card did and why."),
               ("BAT-1", "BAT-2")),
    "treasure": (_("Treasure Time: from the start player clockwise, each player wins the cards "
                   "under their surviving attack cards and the cards they sandwich."),
                 ("TRE-1", "TRE-2", "INT-1")),
    "next": (_("The round is over: the attack cards left go to their owners' discard piles, the "
               "grid is filled again from the deck, and the next round begins."), ("TRE-4", "TRE-5")),
    "wait": (_("Nothing to do for now: all your dice are on cards. Watch the lines while the "
               "captains play, and ring the bell only once it may ring: ringing earlier is a false "
               "bell."), ("DICE-4", "DICE-6")),
    "wait/false-bell": (_("You rang a false bell, so you sit out the rest of this Dice Time: wait "
                          "for it to end."), ("DICE-6",)),
    "end": (_("The game is over: the deck could not fill the grid with more than %(end_at)s cards. Most "
              "treasure cards wins; with equal cards, more doubles."), ("END-1", "END-2", "END-3")),
}


@dataclass(frozen=True)
class Pointer:
    """Where the guided game points now.

    Attributes:
        topic: what this moment teaches (a key of :data:`NOTES` without its mode).
        note: how it works, the first time the topic comes up ("" after).
        clauses: the note's clauses.
        hint: the move and why (a hint of grade 2), when the learner has a move to make.
        target: what to choose: ``cell`` (a card on the board), ``place`` (the form, its
            position and card chosen), ``roll-some`` (the dice ticked), ``roll-all``,
            ``begin``, ``ring``, ``continue``, or in a round's steps ``step-next``,
            ``step-end`` and ``next-round``.
        cell: the position the move is about.
        card: the attack card to place.
        dice: which of the learner's dice in hand to tick, by their place in the hand.
    """

    topic: str
    note: str = ""
    clauses: tuple[str, ...] = ()
    hint: Hint | None = None
    target: str = ""
    cell: Position | None = None
    card: int | None = None
    dice: tuple[int, ...] = ()


def guide_of(game) -> str | None:
    """``strategy`` or ``action`` for a guided game, else ``None``."""
    guide = (game.setup or {}).get("guide")
    return guide if guide in GUIDES else None


def base_kind(move) -> str:
    """The kind of a move, whatever its reason: ``begin``, ``claim``, ``roll``, ``pass``,
    ``ring`` or ``place``."""
    return {RingStartBell: "begin", Claim: "claim", Roll: "roll", Pass: "pass", RingBell: "ring",
            PlaceAttackCard: "place"}[type(move)]


def topics_done(practice) -> set[str]:
    """What the learner's moves so far have taught: each move's kind and its reason
    (:func:`~tutorials.play.hints.pointer_kind`), from the state it was made in."""
    done: set[str] = set()
    state = practice.dealt
    for entry in practice.log:
        if entry.by_learner:
            done.add(topic_of(entry.action, move_facts(state, practice.learner, entry.action), done))
        state = apply(state, entry.action)
    return done


def topic_of(move, facts, done: set[str]) -> str:
    """What a move's note teaches, given what is ``done``: the move's own kind first (the
    first claim), then each fact it rests on that the game has not taught yet (a sandwich,
    then a [0] at its end); a move with nothing new repeats its reason's topic (its note
    then stays unsaid)."""
    said = {f.code for f in facts}
    candidates = [base_kind(move), *(t for t in TEACHES if t in said), pointer_kind(move, facts)]
    return next((t for t in candidates if t not in done), candidates[-1])


def _note(topic: str, mode: Mode, done: set[str]) -> tuple[str, tuple[str, ...]]:
    """The note of ``topic`` unless it is ``done``."""
    if topic in done:
        return "", ()
    text, clauses = NOTES.get(f"{topic}/{mode.value}") or NOTES.get(topic, ("", ()))
    return (str(text) % facts(), clauses) if text else ("", ())


def pointer(page, code: str) -> Pointer | None:
    """The pointer of a guided game's page (:class:`~tutorials.play.page.GamePage`), or
    ``None`` while the captains play."""
    practice, state = page.practice, page.state
    mode = state.rules.mode
    if page.over and (page.walk is None or page.at_last_step):
        return Pointer("end", *_note("end", mode, set()))
    if page.walk is not None:
        return _review(page, mode)
    if page.can_continue:  # ready for the first round, or (in another tab) the next
        return Pointer("start", *_note("start", mode, {"start"} if page.rounds else set()),
                       target="continue")
    both = hints_for(practice, code)
    if both is None:
        return _waiting(page, mode)
    hint = both[1]
    move = hint.move
    done = topics_done(practice)
    topic = topic_of(move, hint.facts, done)
    note, clauses = _note(topic, mode, done)
    if not practice.log:  # the game's very first screen says what a guided game is, too
        start, start_clauses = _note("start", mode, set())
        note, clauses = sentences(start, note), start_clauses + clauses
    return Pointer(topic, note, clauses, hint=hint, **_target(move, state))


#: the facts of a move the guide teaches, in the order it teaches them
TEACHES = ("line.fills", "sandwich", "immune", "speed.first", "hand.recycle")


def _waiting(page, mode: Mode) -> Pointer | None:
    """Action mode's Dice Time with nothing for the learner to do: say why, and that the
    bell is not for now (a bell rung too early is a false bell)."""
    if not page.live.dice_time:
        return None
    if page.me.false_bell:
        return Pointer("wait", str(NOTES["wait/false-bell"][0]), NOTES["wait/false-bell"][1])
    return Pointer("wait", str(NOTES["wait"][0]), NOTES["wait"][1])


def _target(move, state) -> dict:
    if isinstance(move, Claim):
        return {"target": "cell", "cell": move.position}
    if isinstance(move, PlaceAttackCard):
        return {"target": "place", "cell": move.position, "card": int(move.kind)}
    if isinstance(move, Roll):
        hand = list(state.player(move.player).dice)
        if move.dice is None or len(move.dice) == len(hand) or state.rules.mode is not Mode.STRATEGY:
            return {"target": "roll-all"}
        ticked, left = [], list(move.dice)
        for i, face in enumerate(hand):
            if face in left:
                left.remove(face)
                ticked.append(i)
        return {"target": "roll-some", "dice": tuple(ticked)}
    if isinstance(move, RingBell):
        return {"target": "ring"}
    if isinstance(move, RingStartBell):
        return {"target": "begin"}
    return {"target": "pass"}


#: the steps of a round that open a topic: its note is said there
_REVIEW_TOPICS = {"reveal": "battle", "treasure": "treasure", "end": "next"}


def _review(page, mode: Mode) -> Pointer:
    """A round just played, step by step: the first round is stepped through, each phase's
    note said at its first step; later rounds, and the last one, may jump to the result."""
    first = len(page.rounds) == 1
    steps = page.walk.steps
    kind = steps[page.step].kind if steps else "end"
    opens = kind in _REVIEW_TOPICS and (kind != "treasure" or steps[page.step].index == 0)
    topic = _REVIEW_TOPICS.get(kind, "battle")
    note = _note(topic, mode, set() if first and opens else {topic})
    if page.at_last_step:
        return Pointer(topic, *note, target="next-round")
    return Pointer(topic, *note, target="step-next" if first and not page.over else "step-end")
