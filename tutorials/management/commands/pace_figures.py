"""``manage.py pace_figures``: what each practice-game pace means at the table, in seconds.

Simulates action-mode rounds at every pace (:mod:`captain.rules.captains.timing`: the
learner only rings when it must and says it is ready) and prints, for 2, 3 and 4 players,
the median time from the start bell to the first captain action and the median length of
Dice Time.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from captain.rules.captains.pace import Pace
from captain.rules.captains.timing import measure


class Command(BaseCommand):
    help = "Print the median time to the first captain action and the median Dice Time per pace."

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, default=40, help="Dice Times per pace and table (40)")
        parser.add_argument("--seed", type=int, default=1, help="the first game's seed (1)")

    def handle(self, *args, **options):
        rounds, seed = options["rounds"], options["seed"]
        self.stdout.write(f"action mode, greedy captains, {rounds} Dice Times each; medians in seconds")
        self.stdout.write(f"  {'pace':<11} {'players':>7} {'first captain action':>21} {'Dice Time':>10}")
        for pace in Pace:
            for players in (2, 3, 4):
                figures = measure(pace, players=players, rounds=rounds, seed=seed)
                self.stdout.write(f"  {pace.value:<11} {players:>7} {figures.first_action:>21.2f} "
                                  f"{figures.length:>10.2f}")
