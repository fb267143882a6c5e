"""Whole games: setup, every action with its legality, automatic resolution, the end.

A :class:`GameState` is an immutable snapshot of a whole game. :func:`new_game`
deals one (SETUP-1..4) from a seed; :func:`legal_actions` lists what each player may
do; :func:`apply` returns the next state or raises :class:`IllegalAction` naming the
clause that forbids the action. Battle Time, Treasure Time, refilling and the end
check run by themselves when Setting Time ends (SET-3).

Modules: :mod:`.actions` (the actions), :mod:`.state` (the state), :mod:`.setup`
(dealing, the random source), :mod:`.legal` (listing and checking), :mod:`.apply`
(transitions).

>>> g = new_game((Colour.RED, Colour.BLUE, Colour.GREEN), seed=7, start_player=Colour.RED)
>>> g.phase, g.board.shape, len(g.deck), g.player(Colour.RED).hand_size
(Phase.AWAIT_START_BELL, (4, 4), 26, 9)
>>> actions = legal_actions(g)
>>> actions
LegalActions([RingStartBell(player=Colour.RED)])
>>> g = actions.apply(actions[0])   # taken from the listing: not checked again
>>> g.phase, len(g.player(Colour.BLUE).dice)
(Phase.DICE, 6)
"""

from ..errors import IllegalAction
from ..model import Colour
from .actions import (
                      ACTION_TYPES,
                      Action,
                      Claim,
                      Pass,
                      PlaceAttackCard,
                      RingBell,
                      RingStartBell,
                      Roll,
                      action_from_json,
                      action_to_json,
)
from .legal import can_place_in_principle, check, pair_left, pairs_shown
from .setup import new_game, starting_hand
from .state import GameState, Phase, PlayerState, RoundRecord
from .transitions import LegalActions, apply, attack_cards_of, legal_actions, refill, transition

__all__ = [
    "ACTION_TYPES", "Action", "action_from_json", "action_to_json", "Claim", "Colour", "GameState",
    "IllegalAction", "LegalActions", "Pass", "Phase",
    "PlaceAttackCard", "PlayerState", "RingBell", "RingStartBell", "Roll", "RoundRecord",
    "apply", "attack_cards_of", "can_place_in_principle", "check", "legal_actions", "new_game",
    "pair_left", "pairs_shown", "refill", "starting_hand", "transition",
]
