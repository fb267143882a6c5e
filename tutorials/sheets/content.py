"""What the printed sheets say and show: texts, worked examples drawn by the engine."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from captain.rules import Board, Seating, Situation
from tutorials.drawing.cells import CellView
from tutorials.drawing.diagrams import all_diagrams
from tutorials.drawing.svg import board_description, board_svg
from tutorials.tutorial.audience import AUDIENCE_MODES, DEFAULT_AUDIENCE, Audience
from tutorials.tutorial.comes_up import cards_for
from tutorials.tutorial.examples import (
    EX_BATTLE,
    EX_BATTLE_2P,
    EX_BATTLE_2P_SEATS,
    EX_BATTLE_SEATS,
    TREASURE_EXAMPLES,
    TREASURE_EXAMPLES_2P,
)
from tutorials.tutorial.reading import taught_clauses
from tutorials.tutorial.teaching import FIRST_ROUND, script_context, sections, stored_options
from tutorials.walkthrough import Walkthrough
from tutorials.wording.clauses import clause_summary, clause_texts, sections_by_anchor
from tutorials.wording.facts import facts, table_facts
from tutorials.wording.faq import FAQ
from tutorials.wording.glossary import PHASE_NAMES

PHASES = (
    (PHASE_NAMES["dice"], _("Action mode: the start player rings; everyone rolls all %(dice)s dice at once. "
                            "Put two dice showing a card's two faces on it at the same time to claim it. "
                            "Re-roll all dice in hand as often as you like. When %(bell_cards)s or more "
                            "cards of a row, column or diagonal hold dice (short diagonals of %(bell_cards)s "
                            "cards too: this site's reading, INT-3; 2 players: %(bell_cards)s cards "
                            "anywhere), anyone may ring: Dice Time ends and the ringer becomes start "
                            "player. Strategy mode has no bell: Dice Time goes in turns.")),
    (PHASE_NAMES["setting"], _("From the start player clockwise: put one attack card face down on one of "
                               "your claimed cards and take those dice back. Players without dice on the "
                               "board are skipped. Must lay a card with an empty hand? Take your whole "
                               "discard pile back first.")),
    (PHASE_NAMES["battle"], _("Reveal all cards. They act by speed, %(speeds)s; equal speed: start player "
                              "first, then clockwise. An acting card removes every other player's card in "
                              "its range. A removed card never acts.")),
    (PHASE_NAMES["treasure"], _("Each surviving attack card wins the treasure card under it; two surviving "
                                "cards of one player in a row, column or diagonal also win every card "
                                "between them, unless another player's card lies between. Where claims "
                                "overlap, the start player comes first, then clockwise. Then every attack "
                                "card left goes to its owner's discard pile, and the start player refills "
                                "the grid from the deck (too few cards: as close to a square as "
                                "possible).")),
)

STRATEGY = (
    _("Dice Time begins with everyone rolling all %(dice)s dice at once; then turns go clockwise from the "
      "start player."),
    _("On your turn, either re-roll any of your dice in hand once, or place a pair."),
    _("Dice Time ends as soon as every card of some row, column or diagonal holds dice (short "
      "diagonals of %(bell_cards)s cards too: this site's reading, INT-3); whoever placed last becomes "
      "start player."),
    _("Option: after a re-roll you may place at once in the same turn."),
)


#: The captions under the battle example's two boards (templates/sheets/_battle_example.html).
REVEALED, AFTER_BATTLE = _("Revealed"), _("After Battle Time")


def _final_cells(situation: Situation, kind: str):
    walk = Walkthrough(situation)
    index = max(i for i, s in enumerate(walk.steps) if s.kind == kind)
    return walk, walk.cells(index, ghost_collected=False)


def examples(two: bool = False) -> dict[str, dict]:
    """Worked examples drawn by the engine: battle (before/after) and the three sandwiches;
    ``two``: those of the two-player 3 × 3 grid (SETUP-4).

    Each board's SVG carries its description (:func:`board_description`) as its title, with
    the caption the sheets print under it."""

    rows, seats = (EX_BATTLE_2P, EX_BATTLE_2P_SEATS) if two else (EX_BATTLE, EX_BATTLE_SEATS)
    battle = Situation(Board.parse(rows), Seating(seats, seats[0]))
    walk, after = _final_cells(battle, "battle-done")
    before = [[CellView(c.pos, c.treasure, c.card or c.ghost) for c in row] for row in walk.cells(0)]
    out = {"battle": {"before": board_svg(before, title=board_description(before, str(REVEALED))),
                      "after": board_svg(after, title=board_description(after, str(AFTER_BATTLE))),
                      "steps": [e for e in walk.explanations(len(walk.steps) - 1)
                                if e.code.startswith("battle.") and e.code != "battle.done"]}}
    for name, (rows, players, start) in (TREASURE_EXAMPLES_2P if two else TREASURE_EXAMPLES).items():
        situation = Situation(Board.parse(rows), Seating(players, start))
        walk, cells = _final_cells(situation, "end")
        out[name] = {"board": board_svg(cells),
                     "lines": [e for e in walk.explanations(len(walk.steps) - 1)
                               if e.code in ("treasure.sandwich", "treasure.blocked",
                                             "treasure.priority", "treasure.reading_matters")]}
    return out


#: Sheets whose text depends on the audience; the others are the same for every audience.
AUDIENCE_SHEETS = ("quick-start", "teach")


@dataclass(frozen=True)
class VariantBox:
    """An official variant as a marked box on a teaching sheet, after the section (by slug)
    that teaches the rule it changes; ``modes`` it has a meaning in."""

    clause: str
    after: tuple[str, ...]
    title: object
    text: object
    modes: tuple[str, ...] = AUDIENCE_MODES


VARIANT_BOXES = (
    VariantBox("VAR-2", ("goal", "setup"), _("Variant: no Scout Ships"),
               _("Everyone leaves their [5] cards in the box and plays with %(hand)s attack cards, "
                 "[0] to [4].")),
    # the bell variant changes the bell, and strategy mode has none (STRAT-1)
    VariantBox("VAR-3", ("bell", "ending-dice-time"), _("Variant: the full-hand bell"),
               _("Instead, anyone may ring as soon as one player has placed all %(dice)s of their "
                 "dice."), modes=("action",)),
    VariantBox("VAR-1", ("battle-time",), _("Variant: reversed speed"),
               _("Cards act in the order %(speeds_reversed)s; equal speed as usual. The example keeps "
                 "the usual order.")),
)


def variant_boxes(audience: Audience) -> dict[str, list[dict]]:
    """The variant boxes of an audience's sheet, by the slug of the section they follow."""
    numbers = {**facts(), "hand": table_facts(audience.players, no_scouts=True)["hand"]}
    out: dict[str, list[dict]] = {}
    for box in VARIANT_BOXES:
        if audience.mode in box.modes:
            shown = {"clause": box.clause, "title": box.title, "text": str(box.text) % numbers}
            for slug in box.after:
                out.setdefault(slug, []).append(shown)
    return out


#: A card's name on a board picture: at the teaching sheets' board size (31 mm wide, a
#: card 7 mm) it prints under a millimetre high, a grey smudge; the speed and the colour
#: letter are what the reader sees, and the picture's title still names every card.
_CARD_NAME = re.compile(r'<text\b[^>]*class="token-name"[^>]*>.*?</text>', re.DOTALL)

#: The battle steps the quick start prints: the section says how cards are revealed and
#: that [0] attacks nothing just before the example, and one card skipped shows BAT-3.
_QUICK_STEPS = ("battle.act", "battle.skipped")


def _small(svg: str) -> SafeString:
    return mark_safe(_CARD_NAME.sub("", svg))


def _teaching_examples(audience: Audience, script: str) -> dict[str, dict]:
    """The worked examples at the teaching sheets' small board size; the quick start's
    battle told in the steps that add to what its section says, each kind once."""
    out = examples(audience.players == 2)
    for example in out.values():
        for key in ("before", "after", "board"):
            if key in example:
                example[key] = _small(example[key])
    if script == "quick":
        seen: set[str] = set()
        steps = []
        for step in out["battle"]["steps"]:
            if step.code in _QUICK_STEPS and (step.code == "battle.act" or step.code not in seen):
                steps.append(step)
                seen.add(step.code)
        out["battle"]["steps"] = steps
    return out


#: "When it comes up" cards the quick start leaves out because the sheet states their rule
#: elsewhere, with the modes where it does: SET-2 (Setting Time picks a card holding your
#: dice and goes round until none are left), SET-4 (the DICE-7 card), BAT-5 (the ranges are
#: given as positions), TRE-3 (the bell section: the start player goes first whenever things
#: happen at the same time; strategy mode has no bell section, so its sheet keeps the card).
QUICK_STATED = {"SET-2": AUDIENCE_MODES, "SET-4": AUDIENCE_MODES, "BAT-5": AUDIENCE_MODES,
                "TRE-3": ("action",)}


def context_for(name: str, audience: Audience = DEFAULT_AUDIENCE) -> dict:
    """Template context of a fixed sheet; the teaching sheets (:data:`AUDIENCE_SHEETS`) are
    those of ``audience``."""
    ctx: dict = {"cards": all_diagrams()}
    if name in ("rules", "reference"):
        numbers = facts()
        ctx.update(examples=examples(), phases=[(name, str(text) % numbers) for name, text in PHASES],
                   faq=FAQ, strategy=[str(line) % numbers for line in STRATEGY],
                   clauses=clause_texts(), sections=sections_by_anchor(),
                   strategy_clauses=[(cid, clause_summary(cid, in_section=True))
                                     for cid in ("STRAT-1", "STRAT-2", "STRAT-3", "STRAT-4")])
    if name in ("teach", "quick-start"):
        # the script for this audience without variants, as read aloud; the variants are boxes
        options = stored_options({"script": "full" if name == "teach" else "quick",
                                  "players": audience.players, "mode": audience.mode})
        # printed: the round sections say what the table does, not what a phone shows; the
        # quick start, one sheet of paper, ends where the table starts playing
        shown = [s for s in sections(options) if name == "teach" or s not in FIRST_ROUND]
        stated = {c for c, modes in QUICK_STATED.items() if audience.mode in modes and name == "quick-start"}
        said = taught_clauses(options) | stated
        ctx.update(script_context(options), examples=_teaching_examples(audience, options["script"]),
                   sheet_examples=True, printed=True, script_sections=shown, audience=audience,
                   variant_boxes=variant_boxes(audience), comes_up=cards_for(options, said))
    return ctx


#: Steps from which the position sheet sets its answer smaller, in three columns, so that
#: it stays on one page (a full 4 × 4 grid answers in up to fifty steps).
LONG_ANSWER = 24


def position_context(situation: Situation) -> dict:
    """The analyzer PDF: the position, every step's explanation, boards at key steps (each
    board's SVG titled with its description, which starts with the step's title)."""
    walk = Walkthrough(situation)
    boards = []
    for kind in ("bell", "reveal", "battle-done", "end"):
        idx = [i for i, s in enumerate(walk.steps) if s.kind == kind]
        if idx:
            title = walk.steps[idx[-1]].title
            cells = walk.cells(idx[-1], ghost_collected=False)
            boards.append({"title": title,
                           "svg": board_svg(cells, title=board_description(cells, str(title)))})
    last = len(walk.steps) - 1
    explanations = walk.explanations(last) if walk.steps else []
    # each reading the answer depends on, said once under the steps that cite its id
    readings = {ex.interpretation: ex.interpretation_title for ex in explanations
                if ex.interpretation and (ex.interpretation != ex.clause or ex.other_reading)}
    return {"walk": walk, "boards": boards, "long_answer": LONG_ANSWER, "explanations": explanations,
            "readings": list(readings.items()),
            "winnings": walk.winnings(last) if walk.steps else [],
            "code": situation.to_notation(), "situation": situation,
            "round_end": walk.solution.round_end,
            "start_board": board_svg(walk.cells(0)) if not walk.steps else None}
