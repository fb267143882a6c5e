"""``manage.py teach_length``: how long each teaching script takes to read aloud.

Prints, per language, the read-aloud length (Japanese: non-space characters; English and
German: words) and the estimated minutes of the quick start and the full script for 2, 3
and 4 players, both modes, without and with the variants that apply (action mode: VAR-1,
VAR-2, VAR-3; strategy mode: VAR-1, VAR-2). The reading rates are those of
:data:`tutorials.tutorial.reading.RATES`; the quick start's limits are checked by
``tests/site/test_teach_scripts.py``.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from tutorials.tutorial.reading import RATES, script_timing

#: Read-aloud limits of the quick start for a 4-player action-mode table without variants.
QUICK_LIMITS = {"ja": 1600, "en": 750, "de": 650}


def combinations():
    """``(label, options)`` for every table the command reports."""
    for mode in ("action", "strategy"):
        for players in (2, 3, 4):
            all_variants = ["v1", "v2", "v3"] if mode == "action" else ["v1", "v2"]
            for variants in ([], all_variants):
                label = f"{players}p {mode:<8} {'+'.join(variants) or 'no variants'}"
                yield label, {"players": players, "mode": mode, "variants": variants}


class Command(BaseCommand):
    help = "Print the read-aloud length and estimated minutes of both teaching scripts."

    def add_arguments(self, parser):
        parser.add_argument("--lang", action="append", choices=sorted(RATES),
                            help="only these languages (repeatable; default: all)")
        parser.add_argument("--text", choices=("quick", "full"),
                            help="print that script's read-aloud text (4 players, action mode) instead")

    def handle(self, *args, **options):
        if options["text"]:
            for lang in options["lang"] or ("ja", "en", "de"):
                timing = script_timing({"script": options["text"]}, lang)
                self.stdout.write(f"\n[{lang}] {sum(t.length for t in timing)} {RATES[lang][1]}")
                self.stdout.write("\n\n".join(t.text for t in timing))
            return
        for lang in options["lang"] or ("ja", "en", "de"):
            rate, unit = RATES[lang]
            self.stdout.write(f"\n{lang}: {unit} read aloud, minutes at {rate} {unit}/min; "
                              f"quick start limit {QUICK_LIMITS[lang]} {unit} (4p action, no variants)")
            self.stdout.write(f"  {'table':<28} {'quick':>7} {'min':>5}   {'full':>7} {'min':>5}")
            for label, table in combinations():
                quick = script_timing({**table, "script": "quick"}, lang)
                full = script_timing({**table, "script": "full"}, lang)
                q, f = sum(t.length for t in quick), sum(t.length for t in full)
                flag = " OVER" if label.startswith("4p action") and "no variants" in label \
                    and q > QUICK_LIMITS[lang] else ""
                self.stdout.write(f"  {label:<28} {q:>7} {q / rate:>5.1f}   {f:>7} {f / rate:>5.1f}{flag}")
