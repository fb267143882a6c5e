"""What the rules search finds, in all three languages at once, so a question is matched
in its own language and answered in the page's.

The entries are the clauses' statements (with their section's title), the site's FAQ
entries, the "when it comes up" cards and the glossary's terms — each in Japanese, English
and German, each leading to the clauses it answers with. The clauses each entry leads on to
(:data:`RELATED`) and the worked example that shows it on a board (:data:`EXAMPLES`,
opened in the analyzer) are data of this module: one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from captain.rules import AttackKind, Board, Colour, RuleSet, Seating, Situation
from captain.rules.situation import Mode
from tutorials.tutorial.comes_up import CARDS
from tutorials.tutorial.examples import (
    DICE_BOARD_2,
    DICE_BOARD_4,
    EX_BATTLE,
    EX_BATTLE_SEATS,
    TREASURE_EXAMPLES,
)
from tutorials.wording.clauses import CLAUSES, SECTIONS, clause_summary
from tutorials.wording.faq import FAQ
from tutorials.wording.glossary import CARD_EFFECTS, PHASE_NAMES, card_label

LANGUAGES = ("ja", "en", "de")

#: The clauses an answer leads on to: the rule a reading reads, the variant of a rule, the
#: rules that act together (both ways are listed where both help).
RELATED: dict[str, tuple[str, ...]] = {
    "SETUP-1": ("SETUP-3", "VAR-2"), "SETUP-2": ("END-3",), "SETUP-3": ("SETUP-1", "DICE-1"),
    "SETUP-4": ("DICE-5", "SETUP-1"),
    "DICE-1": ("DICE-3", "STRAT-1"), "DICE-2": ("DICE-3", "DICE-7"), "DICE-3": ("DICE-2", "INT-8"),
    "DICE-4": ("DICE-6", "INT-3", "DICE-5"), "DICE-5": ("DICE-4", "SETUP-4"),
    "DICE-6": ("DICE-4", "INT-7"), "DICE-7": ("SET-4",),
    "STRAT-1": ("STRAT-2", "STRAT-3"), "STRAT-2": ("STRAT-4", "INT-8"), "STRAT-3": ("INT-3", "INT-6"),
    "STRAT-4": ("STRAT-2",),
    "SET-1": ("SET-2", "SET-3"), "SET-2": ("SET-1", "SET-4"), "SET-3": ("SET-1",), "SET-4": ("DICE-7",),
    "BAT-1": ("BAT-2", "VAR-1"), "BAT-2": ("BAT-1",), "BAT-3": ("BAT-1", "BAT-4"),
    "BAT-4": ("BAT-3", "BAT-5"), "BAT-5": ("BAT-4",),
    "TRE-1": ("TRE-2",), "TRE-2": ("TRE-3", "INT-1", "INT-2"), "TRE-3": ("TRE-2", "INT-1"),
    "TRE-4": ("TRE-5",), "TRE-5": ("INT-5", "END-1"),
    "END-1": ("INT-4", "TRE-5"), "END-2": ("END-3",), "END-3": ("END-2", "SETUP-2"),
    "VAR-1": ("BAT-1",), "VAR-2": ("SETUP-1",), "VAR-3": ("DICE-4",), "VAR-4": ("DICE-4", "DICE-6"),
    "INT-1": ("TRE-3", "TRE-2"), "INT-2": ("TRE-2",), "INT-3": ("DICE-4", "STRAT-3"),
    "INT-4": ("END-1",), "INT-5": ("TRE-5",), "INT-6": ("DICE-4", "STRAT-3"), "INT-7": ("DICE-6",),
    "INT-8": ("DICE-3", "STRAT-2"),
}


def _situation(rows, seats, start=None, rules: RuleSet = RuleSet()) -> Situation:
    return Situation(Board.parse(list(rows)), Seating(tuple(seats), start or seats[0]), rules)


def _with_dice(rows, marks: dict[tuple[int, int], str]) -> tuple[str, ...]:
    grid = [row.split() for row in rows]
    for (r, c), letter in marks.items():
        grid[r][c] += ":" + letter
    return tuple(" ".join(row) for row in grid)


R, B, G = Colour.RED, Colour.BLUE, Colour.GREEN
_BELL_ROW = _with_dice(DICE_BOARD_4, {(0, 0): "R", (0, 1): "B", (0, 3): "G"})
_SHORT_DIAGONAL = _with_dice(DICE_BOARD_4, {(0, 1): "R", (1, 2): "B", (2, 3): "R"})
_TWO_PLAYERS = _with_dice(DICE_BOARD_2, {(0, 0): "R", (1, 2): "B", (2, 1): "B"})
_GAP = ("12 35 44 26", "15 33 24 56", "11:r5 -- 23 13:r5", "34 66 25 14")
_REACH = ("11:r2 -- 13:b1 14", "15 16 22 23", "24 25 26 33", "34 35 36 44")

#: The worked example that shows a clause on a board, by clause: the official examples
#: of RULES.md (EX-BATTLE, EX-SANDWICH, EX-BLOCK, EX-PRIORITY) and a few boards of the
#: tutorial's. Each opens in the analyzer.
EXAMPLES: dict[str, Situation] = {
    **dict.fromkeys(("BAT-1", "BAT-2", "BAT-3", "BAT-4"), _situation(EX_BATTLE, EX_BATTLE_SEATS)),
    **dict.fromkeys(("TRE-1", "TRE-2"), _situation(*TREASURE_EXAMPLES["sandwich"])),
    "TRE-3": _situation(*TREASURE_EXAMPLES["priority"]),
    "INT-1": _situation(*TREASURE_EXAMPLES["block"]),
    "INT-2": _situation(_GAP, (R, B, G, Colour.WHITE)),
    "BAT-5": _situation(_REACH, (R, B)),
    "DICE-4": _situation(_BELL_ROW, (R, B, G)),
    "INT-3": _situation(_SHORT_DIAGONAL, (R, B, G)),
    "DICE-5": _situation(_TWO_PLAYERS, (R, B)),
    "STRAT-3": _situation(_with_dice(_BELL_ROW, {(0, 2): "R"}), (R, B, G), rules=RuleSet(mode=Mode.STRATEGY)),
}

#: The glossary's terms (RULES.md's names table) and the clauses that say what each is.
TERMS: tuple[tuple[object, tuple[str, ...]], ...] = (
    *((kind, ("BAT-4",)) for kind in AttackKind),
    (PHASE_NAMES["dice"], ("DICE-1", "STRAT-1")), (PHASE_NAMES["setting"], ("SET-1",)),
    (PHASE_NAMES["battle"], ("BAT-1",)), (PHASE_NAMES["treasure"], ("TRE-1",)),
    (_("start player"), ("DICE-4", "STRAT-3", "BAT-2", "TRE-3")),
    (_("false bell"), ("DICE-6",)),
    (_("sandwich"), ("TRE-2",)),
    (_("double"), ("END-3", "SETUP-2")),
    (_("discard pile"), ("BAT-4", "TRE-4", "SET-4")),
    (_("deck"), ("SETUP-3", "TRE-5", "END-1")),
)
#: The phase each clause prefix belongs to: its name is words of the entry.
PHASES = {"DICE-": "dice", "STRAT-": "dice", "SET-": "setting", "BAT-": "battle", "TRE-": "treasure"}


@dataclass(frozen=True)
class Entry:
    """One thing the search can find: a clause's statement, an FAQ entry, a "when it comes
    up" card or a glossary term (``kind``: ``clause``, ``faq``, ``card``, ``term``); the
    clauses it answers with, first the one it is most about; its ``title`` and ``text`` in
    each language."""

    kind: str
    key: str
    clauses: tuple[str, ...]
    title: dict[str, str]
    text: dict[str, str]


def section_title(clause: str) -> str:
    """The title of the rules page's section that holds ``clause``."""
    for _anchor, title, which in SECTIONS:
        if clause.startswith(which) if isinstance(which, str) else clause in which:
            return str(title)
    return ""


def _in_languages(make) -> tuple[dict[str, str], dict[str, str]]:
    titles, texts = {}, {}
    for lang in LANGUAGES:
        with translation.override(lang):
            titles[lang], texts[lang] = (str(part) for part in make())
    return titles, texts


def _clause(clause: str) -> tuple[str, str]:
    phase = next((PHASE_NAMES[p] for prefix, p in PHASES.items() if clause.startswith(prefix)), "")
    return f"{section_title(clause)} {phase}".strip(), clause_summary(clause)


def _term(term) -> tuple[str, str]:
    if isinstance(term, AttackKind):
        return card_label(term), CARD_EFFECTS[term]
    return str(term), ""


@cache
def entries() -> tuple[Entry, ...]:
    """Everything the search finds (built once a process)."""
    out = [Entry("clause", clause, (clause,), *_in_languages(lambda c=clause: _clause(c)))
           for clause in CLAUSES]
    out += [Entry("faq", f"faq-{n}", clauses, *_in_languages(lambda q=q, a=a: (q, a)))
            for n, (q, a, clauses) in enumerate(FAQ)]
    out += [Entry("card", f"card-{n}", (card.clause,), *_in_languages(lambda c=card: (c.title, c.say())))
            for n, card in enumerate(CARDS)]
    out += [Entry("term", f"term-{n}", clauses, *_in_languages(lambda t=term: _term(t)))
            for n, (term, clauses) in enumerate(TERMS)]
    return tuple(out)
