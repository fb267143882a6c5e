"""What every example board shares: its title, its notes, the links and forms of its
actions (:class:`~tutorials.drawing.cells.BoardAction`) and its address on the page."""

from __future__ import annotations

import random
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext_lazy

from captain.rules import Situation
from tutorials.drawing.cells import BoardAction, CellView
from tutorials.tutorial.audience import DEFAULT_AUDIENCE
from tutorials.tutorial.script import LESSONS
from tutorials.web.links import analyzer_url
from tutorials.wording.facts import facts
from tutorials.wording.glossary import COLUMN_LETTERS

#: each board's heading, by board id
TITLES = {
    "dice": gettext_lazy("Try it: roll and claim"),
    "bell": gettext_lazy("Try it: may the bell ring?"),
    "battle": gettext_lazy("Worked example: a battle"),
    "sandwich": gettext_lazy("Worked example: a sandwich"),
    "block": gettext_lazy("Worked example: a blocked sandwich"),
    "priority": gettext_lazy("Worked example: two sandwiches claim one card"),
    "turns": gettext_lazy("Try it: take your turns"),
    "line": gettext_lazy("Try it: play on until a line is complete"),
    "quiz-battle": gettext_lazy("Check yourself: one card changed"),
    "quiz-treasure": gettext_lazy("Check yourself: one card changed"),
    "quiz-dice": gettext_lazy("Check yourself: Dice Time"),
    "quiz-line": gettext_lazy("Check yourself: Dice Time"),
    "quiz-setting": gettext_lazy("Check yourself: Setting Time"),
    "quiz-round": gettext_lazy("Check yourself: the next round"),
    "quiz-end": gettext_lazy("Check yourself: the end of the game"),
}

#: the notes a board shows after an action (most of them Dice Time's) or an unreadable state
NOTES = {
    "not-started": gettext_lazy("Dice Time has not begun yet: start it with “Roll all dice”. This bell "
                                "button ends Dice Time."),
    "started": gettext_lazy("Ding! The start player rang: Dice Time begins, and everyone rolls all "
                            "%(dice)s dice at once."),
    "refused": gettext_lazy("That is not allowed at this moment."),
    "occupied": gettext_lazy("That card already holds dice: it cannot be claimed again."),
    "no-pair": gettext_lazy("None of your dice in hand show this card's two faces. Re-roll all of them and "
                            "try again."),
    "claimed": gettext_lazy("Claimed: your two dice now sit on this card."),
    "all-placed": gettext_lazy("All your dice are on cards: nothing left to roll."),
    "no-dice-left": gettext_lazy("That colour has no dice left: %(dice)s dice cover %(dice_cards)s cards."),
    "false-bell": gettext_lazy("False bell! The condition did not hold, so you may not roll, place or ring "
                               "again this Dice Time."),
    "false-bell-blocked": gettext_lazy("You rang a false bell: you sit out the rest of this Dice Time. Start "
                                       "again to practise more."),
    "rang": gettext_lazy("Ding! Dice Time is over, and you are the start player until the next Dice Time "
                         "ends."),
    "ended": gettext_lazy("Dice Time is over. Start again to practise more."),
    "turns-begun": gettext_lazy("Everyone has rolled all %(dice)s dice. It is your turn first: you are the "
                                "start player."),
    "rerolled": gettext_lazy("Re-rolled: that was your turn, and the others have had theirs."),
    "pick-first": gettext_lazy("Tap the dice you want to re-roll first, then re-roll them."),
    "no-pair-turns": gettext_lazy("None of your dice in hand show this card's two faces. Pick the dice to "
                                  "re-roll instead: that is your turn."),
    "not-your-turn": gettext_lazy("It is not your turn."),
    "not-begun": gettext_lazy("Dice Time has not begun yet: everyone rolls first."),
    "reset": gettext_lazy("The example position could not be read, so the board starts afresh."),
    "removed": gettext_lazy("Practice dice taken back."),
    "stale": gettext_lazy("The table changed at the same moment (another window?), so that was "
                          "not done. This is the table as it is now."),
}


class ExampleBoard:
    """Base of the tutorial boards: state string, actions, URLs, cells."""

    board_id: str = ""
    template: str = ""

    def __init__(self, lesson: str) -> None:
        self.lesson = lesson
        self.note: str = ""
        #: guests of a teaching session see the board but cannot change it
        self.readonly = False
        #: a teaching table's boards keep the table's player count (no 2/4 switch)
        self.fixed_players = False
        #: presenter mode posts actions (``do``, ``at``) to its own endpoint, this URL
        self.post_url: str | None = None
        #: where the board lives when it is not a tutorial lesson (the teaching pages)
        self.page_base: str | None = None
        #: the audience the tutorial page is read for: its links keep it
        self.audience = DEFAULT_AUDIENCE

    # to implement
    def state(self) -> str:
        raise NotImplementedError

    def apply(self, action: str, arg: str, rng: random.Random) -> ExampleBoard:
        raise NotImplementedError

    def rows(self) -> list[list[CellView]]:
        raise NotImplementedError

    # shared
    @property
    def title(self) -> str:
        return str(TITLES[self.board_id])

    @property
    def anchor(self) -> str:
        return f"board-{self.board_id}"

    def page_url(self) -> str:
        if self.page_base is not None:
            return f"{self.page_base}#{self.anchor}"
        url = reverse("tutorials:lesson", args=[self.lesson])
        query = {**self.audience.query(), self.board_id: self.state()}
        if self.note:
            query[f"{self.board_id}-note"] = self.note
        return f"{url}?{urlencode(query)}#{self.anchor}"

    def own_copy_url(self) -> str:
        """This board, in the state shown, in the tutorial lesson that holds it: where a
        guest of a table (whose copy follows the person teaching) works it on their own."""
        lesson = next((item.slug for item in LESSONS if self.board_id in item.boards + item.strategy_boards),
                      self.lesson)
        url = reverse("tutorials:lesson", args=[lesson])
        return f"{url}?{urlencode({**self.audience.query(), self.board_id: self.state()})}#{self.anchor}"

    @property
    def posts(self) -> bool:
        """Whether actions are POSTed forms (presenter mode) rather than links."""
        return self.post_url is not None

    def action_url(self, action: str, arg: str = "") -> BoardAction:
        """What applies ``action`` (with ``arg``) to this state: a link, or in presenter
        mode the form posted to :attr:`post_url`."""
        if self.posts:
            return BoardAction(action, arg)
        query = {"state": self.state(), "do": action}
        if arg:
            query["at"] = arg
        query.update(self.audience.query())
        url = reverse("tutorials:board", args=[self.lesson, self.board_id])
        return BoardAction(action, arg, f"{url}?{urlencode(query)}")

    #: (name, action, argument) of the links every state offers; see :attr:`links`.
    LINKS: tuple[tuple[str, str, str], ...] = ()

    @property
    def links(self) -> dict[str, BoardAction]:
        """Action URLs by name, for templates (``board.links.roll``)."""
        return {name: self.action_url(action, arg) for name, action, arg in self.LINKS}

    def message(self) -> str:
        """The translated note about the last action (or an unreadable state), if any."""
        return str(NOTES.get(self.note, "")) % facts()

    def columns(self) -> list[str]:
        width = max(len(r) for r in self.rows())
        return list(COLUMN_LETTERS[:width])

    def situation(self) -> Situation:
        """This board's position for the analyzer."""
        raise NotImplementedError

    @property
    def analyzer_url(self) -> str:
        """"Open in analyzer": the same position in the position editor."""
        return analyzer_url(self.situation())
