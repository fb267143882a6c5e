"""``python manage.py search_quality``: how well the rules search answers the question set.

Prints recall@1 and recall@3 per language for the tuned part
(:mod:`tutorials.search.quality`), the out-of-scope questions it wrongly answers, and with
``--misses`` the tuned questions it misses; ``--final`` adds the figures of the part held
out (never its questions: they stay unseen while the search is tuned).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from tutorials.search import quality


class Command(BaseCommand):
    help = "Print the rules search's recall@1 and recall@3 per language on the question set."

    def add_arguments(self, parser):
        parser.add_argument("--misses", action="store_true", help="list the tuned questions missed at 3")
        parser.add_argument("--final", action="store_true", help="also the figures of the held-out part")

    def handle(self, *args, misses: bool = False, final: bool = False, **options):
        for held_out, name in ((False, "tuned"), (True, "held out"))[:2 if final else 1]:
            for lang, recall in quality.figures(held_out).items():
                self.stdout.write(f"{name:9} {lang}: recall@1 {recall[1]:.2f}  recall@3 {recall[3]:.2f}")
        wrong = quality.answered_out_of_scope()
        listed = f" ({'; '.join(wrong)})" if wrong else ""
        self.stdout.write(f"out of scope answered: {len(wrong)}{listed}")
        if misses:
            for question, rank in quality.misses():
                self.stdout.write(f"missed ({question.lang}, rank {rank}): {question.text} -> "
                                  f"{', '.join(question.clauses)}")
