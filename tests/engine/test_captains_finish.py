"""Every computer captain finishes its game: no captain re-rolls forever.

A captain that can claim a card does so some time; one that cannot re-rolls so that a
claim becomes possible. The long version (thousands of games) is a command, not a test:
``python -m captain.rules simulate --players 2 --mode strategy --policy strong --games
2000 --jobs 0`` prints the longest Dice Time it saw.
"""

from __future__ import annotations

from captain.rules import Colour, Mode, RuleSet
from captain.rules.captains.strengths import captain
from captain.rules.game import Phase, Roll
from captain.rules.sim.players import DiceTimeLength, play_game
from captain.rules.sim.simulate import report, simulate

R, B, G, W = Colour


# --- measuring Dice Times ---------------------------------------------------------------------

def test_with_strat_4_a_re_roll_and_the_placement_or_pass_after_it_are_one_turn():
    """Under STRAT-4 every re-roll is followed by the same player's claim or pass, so a
    Dice Time lasts as many turns as it has claims and passes."""
    players = (R, B, G)
    dice_times: list[list[object]] = []
    length = DiceTimeLength()

    def on_step(before, action, after) -> None:
        length(before, action, after)
        if before.phase is Phase.DICE:
            dice_times[-1].append(action)
        elif after.phase is Phase.DICE:
            dice_times.append([])

    play_game(players, dict.fromkeys(players, captain("greedy")), seed=4,
              rules=RuleSet(mode=Mode.STRATEGY, place_after_reroll=True), on_step=on_step)
    turns = [sum(1 for a in moves if not isinstance(a, Roll)) for moves in dice_times]
    assert length.longest == max(turns)
    assert any(isinstance(a, Roll) for moves in dice_times for a in moves)


def test_simulate_reports_the_longest_dice_time_of_any_strength():
    tally = simulate(2, 2, 25, Mode.STRATEGY, "strong")
    assert tally.longest_dice_time > 0 and tally.longest_dice_time_seed in (25, 26)
    text = report(tally, 2, 2, Mode.STRATEGY, "strong", 0.0)
    assert (f"longest Dice Time: {tally.longest_dice_time} turns "
            f"(seed {tally.longest_dice_time_seed})") in text.splitlines()
