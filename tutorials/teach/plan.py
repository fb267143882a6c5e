"""Presenter mode: one table's way through its teaching script.

The scripts themselves, the options that shape them and their read-aloud measure live in
:mod:`tutorials.tutorial.teaching`; here are the services of the presenter's views: where
the table is, what its screens show beside the script (the "when it comes up" cards, the
reading times), its example boards, moving on, acting on a board.
"""

from __future__ import annotations

from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tutorials.teach import seats
from tutorials.teach.round import ENTER, RoundBoard
from tutorials.tutorial import boards
from tutorials.tutorial.comes_up import cards_for
from tutorials.tutorial.reading import RATES, script_timing, taught_clauses
from tutorials.tutorial.teaching import Section, sections, stored_options


# --- changing a table (services of the presenter's views) ----------------------------------
def current_section(session) -> Section:
    """The section the table is at (the last one if the script got shorter)."""
    script = sections(session.options)
    return script[min(session.section, len(script) - 1)]


def comes_up(options, section: Section) -> tuple[list, list]:
    """The "when it comes up" cards of a table (``options`` as
    :func:`~tutorials.tutorial.teaching.stored_options` reads them) at ``section``: those of
    the section's phase, and every rule the script leaves for later. In the guided first
    round the phase's cards are the quick start's, whichever script was read."""
    later = cards_for(options, taught_clauses(options))
    if section.slug.startswith("round-"):
        now = [c for c in cards_for(options, taught_clauses({**options, "script": "quick"}))
               if c.phase == section.phase]
    else:
        now = [c for c in later if c.phase == section.phase]
    return now, later


def reading_minutes(options) -> list[float]:
    """Estimated read-aloud minutes of each section of the script for ``options``, from its
    text in the active language (:mod:`tutorials.tutorial.reading`; English's rate where a
    language has none)."""
    lang = translation.get_language()
    return [t.minutes for t in script_timing(options, lang if lang in RATES else "en")]


def load_board(session, section: Section, board_id: str):
    """The example board ``board_id`` of ``section`` in the table's current state.

    The examples are those of the table (:func:`~tutorials.tutorial.boards.table_state`).
    """

    options = stored_options(session.options)
    state = session.board_states.get(board_id, "")
    if board_id == "round":  # the table's own board (the guided first round)
        return RoundBoard.from_state(section.slug, options, state)
    state = state or boards.table_state(board_id, players=options["players"], variants=options["variants"])
    board = boards.load(board_id, state, lesson=section.slug)
    board.fixed_players = True
    return board


class NotReady(Exception):
    """A move the table is not ready for; ``message`` says why, in the active language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def move(session, to: int, seen: int, screen: int = 0) -> list:
    """Move the table to section ``to`` (clamped to the script), as a move made from
    version ``seen`` of the table, its projector at ``screen`` there (the first; Back from
    a projector's first screen lands on the previous section's last).

    Raises :class:`~tutorials.models.Stale` when the table is no longer at ``seen``
    (another screen moved it or changed a board since): nothing is written, so a stale
    screen never takes the table backwards. Moving to the section the table is at
    changes nothing. The whole-teach timer runs from the table's start (``started_at``, set
    at this move on a row that has none); every move restarts the section's
    (``section_since``).

    Past the guided round's Setting Time every card lies face up, so a move there reveals
    the seats' cards in the same change (:func:`~tutorials.teach.seats.reveal`, whose
    clashing positions it returns). Raises :class:`NotReady` for a move on from entering
    the table's cards while none is entered.
    """
    script = sections(session.options)
    to = max(0, min(to, len(script) - 1))
    session.expect(seen)
    if current_section(session).slug == ENTER and to > session.section and not RoundBoard.from_state(
            ENTER, session.options, session.board_states.get("round", "")).cards:
        raise NotReady(_("No card is entered yet: enter where the table's attack cards lie first."))
    fields = {}
    if to != session.section:
        now = timezone.now()
        fields = {"section": to, "screen": screen, "section_since": now,
                  "started_at": session.started_at or now}
    if to >= [s.slug for s in script].index(ENTER) and not session.revealed:
        return seats.reveal(session, seen, **fields)
    if fields:
        session.change(seen, **fields)
    return []


def act_on_board(session, board_id: str, action: str, arg: str, seen: int, rng):
    """Apply one action to a board of the current section, as an action made from version
    ``seen`` of the table; returns the new board.

    Raises :class:`~tutorials.models.Stale` when the table is no longer at ``seen`` (another
    screen changed it since this one was shown, or at the same moment): nothing is
    written, so a stale screen never undoes what the table shows now (a card placed
    again there would be taken off). Raises ``LookupError`` when the current section has
    no board ``board_id``.
    """
    session.expect(seen)
    section = current_section(session)
    if board_id not in section.boards:
        raise LookupError(f"no board {board_id!r} in section {section.slug!r}")
    board = load_board(session, section, board_id)
    board.fixed_players = True  # the table's player count is the table's (its dice boards)
    board = board.apply(action, arg, rng=rng)
    board.fixed_players = True
    session.change(seen, board_states={**session.board_states, board_id: board.state()})
    return board
