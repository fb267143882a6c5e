"""The forms of the practice game: the start form and the learner's moves on the game page."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from captain.rules import Colour
from captain.rules.captains.pace import Pace
from captain.rules.situation import PLAYER_COUNTS, Collection, Mode, RuleSet
from captain.rules.typed import normalize_typed
from tutorials.forms import (
    COLOUR_VALUES,
    TICKED,
    DefaultChoiceField,
    RuleChoicesForm,
    StrictForm,
    TickField,
    mode_field,
    sentence_of,
)
from tutorials.play.guide import GUIDES
from tutorials.practice import games
from tutorials.web.positions import PATTERN as POSITION
from tutorials.web.positions import read_position

#: Who is the first start player: drawn at random, the learner, the captain after them.
STARTS = ("random", "me", "left")


class PlayStartForm(RuleChoicesForm):
    """The learner's choices for a new game; :meth:`setup` is the game's stored setup.

    Strategy mode (turns, STRAT-1..4) with the STRAT-4 option, or action mode (real time,
    DICE-1..7) with the captains' pace; the variants, the first-edition bell and the INT-1
    reading in either (as far as the engine's :func:`~captain.rules.situation.check_table_rules`
    allows them).
    """

    players = forms.ChoiceField(choices=[(str(n), str(n)) for n in PLAYER_COUNTS],
                                error_messages={"invalid_choice": _("Choose 2, 3 or 4 players."),
                                                "required": _("Choose 2, 3 or 4 players.")})
    colour = forms.ChoiceField(
        choices=[(c, c) for c in COLOUR_VALUES],
        error_messages={"invalid_choice": _("Choose your colour: red, blue, green or white."),
                        "required": _("Choose your colour: red, blue, green or white.")})
    start = DefaultChoiceField(choices=[(s, s) for s in STARTS], default="random",
                               invalid=_("Choose who is the first start player."))
    strength = forms.ChoiceField(
        choices=[(s, s) for s in games.STRENGTHS],
        error_messages={"invalid_choice": _("Choose how strong the computer captains play."),
                        "required": _("Choose how strong the computer captains play.")})
    mode = mode_field("strategy")
    place_after_reroll = TickField(invalid=_("Tick the box for the STRAT-4 option, or leave it empty."))
    pace = DefaultChoiceField(choices=[(p.value, p.value) for p in Pace], default=Pace.FIRST_GAME.value,
                              invalid=_("Choose how fast the computer captains play."))
    collection = DefaultChoiceField(choices=[(c.value, c.value) for c in Collection],
                                    default=Collection.SEQUENTIAL.value,
                                    invalid=_("Choose one of the two readings of the collection order."))

    def flags(self, cleaned: dict) -> list[str]:
        out = super().flags(cleaned)
        if cleaned.get("place_after_reroll"):
            out.append("p")
        if cleaned.get("collection") == Collection.SIMULTANEOUS.value:
            out.append("i")
        return out

    def setup(self) -> dict:
        """The game's setup (:func:`tutorials.practice.games.new_setup`) of a valid form: the
        learner first, the captains clockwise after them in the engine's colour order."""
        c = self.cleaned_data
        learner = Colour(c["colour"])
        seats = [learner, *(Colour(v) for v in COLOUR_VALUES if v != learner.value)][: int(c["players"])]
        start = {"me": seats[0], "left": seats[1]}.get(c["start"])
        rules = c["rules"]
        pace = Pace(c["pace"]) if rules.mode is Mode.ACTION else Pace.TABLE
        return games.new_setup(seats, learner, rules, {s: c["strength"] for s in seats[1:]}, pace,
                               start_player=start)

    def chosen(self) -> dict:
        """The choices as sent, to show a refused form again as the user left it."""
        ticked = {name: normalize_typed(self.typed(name), where=name).lower() in TICKED
                  for name in ("place_after_reroll", "first_edition")}
        return {"players": self.typed("players"), "colour": self.typed("colour"),
                "start": self.typed("start", "random"), "strength": self.typed("strength"),
                "variants": self.typed_list("variants"), "collection": self.typed("collection", "sequential"),
                "mode": self.typed("mode", "strategy"), "pace": self.typed("pace", "first-game"), **ticked}




class GuidedStartForm(StrictForm):
    """The guided game to start (:mod:`tutorials.play.guide`): ``strategy`` or ``action``.
    :meth:`setup` deals it: the learner red against blue and green, the learner starts,
    Fair captains, strategy mode or action mode at the first-game pace."""

    guide = forms.ChoiceField(choices=[(g, g) for g in GUIDES], error_messages={
        "invalid_choice": _("Choose one of the guided games shown."),
        "required": _("Choose one of the guided games shown.")})

    def setup(self) -> dict:
        guide = self.cleaned_data["guide"]
        seats = [Colour.RED, Colour.BLUE, Colour.GREEN]
        rules = RuleSet(mode=Mode(guide))
        pace = Pace.FIRST_GAME if guide == "action" else Pace.TABLE
        setup = games.new_setup(seats, seats[0], rules, dict.fromkeys(seats[1:], "greedy"), pace,
                                start_player=seats[0])
        return {**setup, "guide": guide}


#: the moves of the game page's forms: ``do`` -> the engine's action type
MOVES = {"begin": "begin-dice-time", "continue": "continue", "claim": "claim", "place": "place",
         "roll": "roll", "pass": "pass", "ring": "ring-bell", "take-back": "take-back"}


class MoveForm(StrictForm):
    """One move of the learner from the game page's forms: ``do`` (:data:`MOVES`), ``at``
    (``row-col``), ``card`` (a value), ``dice`` (faces to re-roll, repeated) and ``version``
    (the game's version the page showed). :meth:`move` is the action
    :func:`tutorials.practice.games.play` expects."""

    version = forms.RegexField(regex=r"^[0-9]{1,8}$", error_messages={
        "invalid": sentence_of("play-no-version"), "required": sentence_of("play-no-version")})
    do = forms.ChoiceField(choices=[(d, d) for d in MOVES], error_messages={
        "invalid_choice": sentence_of("play-bad-move"), "required": sentence_of("play-bad-move")})
    at = forms.RegexField(regex=f"^{POSITION}$", required=False,
                          error_messages={"invalid": sentence_of("play-bad-position")})
    card = forms.RegexField(regex=r"^[0-9]$", required=False,
                            error_messages={"invalid": sentence_of("play-bad-card")})
    dice = forms.MultipleChoiceField(choices=[(str(d), str(d)) for d in range(1, 7)], required=False,
                                     error_messages={"invalid_choice": sentence_of("play-bad-dice")})

    FIELD_CODES = {"version": "play-no-version", "do": "play-bad-move", "at": "play-bad-position",
                   "card": "play-bad-card", "dice": "play-bad-dice"}

    def __init__(self, data=None, *args, learner: Colour, action_mode: bool = False, **kwargs) -> None:
        super().__init__(data, *args, **kwargs)
        self.learner, self.action_mode = learner, action_mode

    def clean_together(self, cleaned: dict) -> None:
        do = cleaned["do"]
        for field, needed in (("at", do in ("claim", "place")), ("card", do == "place")):
            if needed and not cleaned.get(field):
                code = self.FIELD_CODES[field]
                self.add_error(field, forms.ValidationError(sentence_of(code), code=code))

    def move(self) -> dict:
        """The action of a valid form. A re-roll without dice is every die in hand in action
        mode (DICE-3, the only re-roll there is); in strategy mode the engine refuses it
        (STRAT-2)."""
        c, player = self.cleaned_data, self.learner.value
        do = c["do"]
        if do == "continue":
            return dict(games.CONTINUE)
        if do == "take-back":
            return dict(games.TAKE_BACK)
        if do in ("begin", "pass", "ring"):
            return {"type": MOVES[do], "player": player}
        position = read_position(c["at"]).to_json() if c.get("at") else None
        if do == "claim":
            return {"type": "claim", "player": player, "position": position}
        if do == "place":
            return {"type": "place", "player": player, "position": position, "value": int(c["card"])}
        dice = [int(d) for d in c["dice"]]
        return {"type": "roll", "player": player, "dice": None if not dice and self.action_mode else dice}

    @property
    def version_seen(self) -> int:
        return int(self.cleaned_data["version"])
