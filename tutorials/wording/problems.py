"""Engine errors worded for people, in the active language.

The engine raises :class:`~captain.rules.errors.RulesError` with a stable ``code``,
``params``, ``where`` and ``clause``. :func:`describe` turns one into a sentence for
the page language; the JSON API uses the same sentences (chosen by Accept-Language).
"""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from captain.rules import AttackKind, Colour, RulesError
from tutorials.wording.facts import facts
from tutorials.wording.glossary import CARD_NAMES, COLOUR_NAMES, position_label


def _colour(params) -> str:
    try:
        return str(COLOUR_NAMES[Colour(params.get("colour"))])
    except (ValueError, KeyError):
        return str(params.get("colour", "?"))


def _at(params) -> str:
    pos = params.get("position")
    return position_label(pos) if isinstance(pos, (list, tuple)) and len(pos) == 2 else ""


#: What the notation reader expected where it stopped, worded for people, by the
#: engine's stable code (captain.rules.notation.EXPECTED; a test checks every code is here).
EXPECTED = {
    "separator": gettext_lazy("“.” between positions, “-” between rows, “_” before a section, or the end"),
    "seats-end": gettext_lazy("“_” after the seats"),
    "p-needs-s": gettext_lazy("“p” only together with “s” (strategy mode)"),
    "seat-count": gettext_lazy("2 to 4 colour letters before “_”"),
    "seat-letter": gettext_lazy("a colour letter r, b, g or w (the start player in upper case)"),
    "colour-letter": gettext_lazy("a colour letter r, b, g or w"),
    "new-colour": gettext_lazy("a colour that is not seated yet"),
    "face-or-x": gettext_lazy("a die face 1–6, or “x” for a position without a treasure card"),
    "face": gettext_lazy("a die face 1–6"),
    "rule-flag": gettext_lazy("a rule flag (v1–v4, s, p, i)"),
    "seated-colour": gettext_lazy("a seated colour"),
    "second-face": gettext_lazy("a second die face 1–6"),
    "section": gettext_lazy("a section “r” (rules), “d” (deck) or “w” (won), each once and in that order"),
    "treasure-under-occupant": gettext_lazy("a treasure card under the card or dice (not “x”)"),
    "variant-number": gettext_lazy("a variant number 1–4"),
    "attack-value": gettext_lazy("an attack value %(fastest)s–%(slowest)s"),
    "colour-once": gettext_lazy("each colour only once"),
    "one-bell-variant": gettext_lazy("only one bell variant (v3 or v4)"),
    "one-start-player": gettext_lazy("only one start player (upper case)"),
    "flag-order": gettext_lazy("rule flags once each, in the order v1 v2 v3 v4 s p i"),
    "smaller-face-first": gettext_lazy("the smaller face first"),
    "start-player-letter": gettext_lazy("the start player's letter in upper case"),
    "deck-number": gettext_lazy("the number of cards in the deck"),
    "row-length": gettext_lazy("at most 12 positions in a row"),
    "won-faces-or-dot": gettext_lazy("two die faces, or “.” before the next colour"),
    "row-count": gettext_lazy("at most 12 rows"),
    "length": gettext_lazy("at most 2000 characters"),
}


def expected_text(code: str) -> str:
    """The translated form of a notation reader's expectation (its stable code)."""
    found = EXPECTED.get(code)
    return str(found) % facts() if found is not None else _("something else")


_FACES = gettext_lazy("A treasure card shows two die faces from 1 to 6, like 35.")
_VALUES = gettext_lazy("Attack cards have values %(fastest)s to %(slowest)s.")
_OFF_BOARD = gettext_lazy("That position is not on the board.")
_BOARD = gettext_lazy("board must be a list of rows, each a text like \"11 13:r3 22\".")
_ROW = gettext_lazy("Each board row must be a text with at least one position.")

#: Error codes whose sentence needs no parameters.
_FIXED = {
    "two-occupants": gettext_lazy(
        "A treasure card holds one attack card or one player's dice, not both."),
    "dice-and-cards": gettext_lazy(
        "Dice and attack cards lie on the board together only during Setting Time; this "
        "analyzer answers positions before it (dice only: may the bell ring?) or after it "
        "(attack cards only: Battle Time and Treasure Time). Remove the dice or the cards."),
    "player-count": gettext_lazy("Two to four players take part."),
    "duplicate-colour": gettext_lazy("Each colour can be seated only once."),
    "start-player-not-seated": gettext_lazy("The start player must be one of the seated players."),
    "bad-faces": _FACES,
    "bad-treasure": _FACES,
    "faces-order": gettext_lazy("Write a treasure card's smaller face first, like 35."),
    "bad-attack-value": _VALUES,
    "board-too-large": gettext_lazy("The board is too large: at most 12 rows of 12 positions."),
    "bad-size": gettext_lazy("Board sides run from 1 to 6, written like %(side)s×%(side)s."),
    "bad-deck": gettext_lazy("The deck size must be a whole number from 0 to %(treasures)s."),
    "bad-tool": gettext_lazy(
        "Unknown tool. Choose a colour and a card value, dice, remove or no treasure card."),
    "off-board": _OFF_BOARD,
    "bad-position": gettext_lazy("That position could not be read: choose a position on the board."),
    "bad-edit": gettext_lazy("That change could not be read: use the board, the palette or the settings "
                             "on this page."),
    "unknown-colour": gettext_lazy("Unknown colour: use red, blue, green or white."),
    "bell-in-strategy": gettext_lazy("Strategy mode has no bell: VAR-3 and the first-edition bell apply in "
                                     "action mode only."),
    "bad-seats": gettext_lazy("Seats are a list of 2 to 4 different colours, clockwise."),
    "bad-players": gettext_lazy("players must be a list of 2 to 4 colours."),
    "bad-board": _BOARD,
    "empty-board": _BOARD,
    "bad-row": _ROW,
    "empty-row": _ROW,
    "bad-rules": gettext_lazy("rules must be an object, e.g. {\"speed_order\": \"reversed\"}."),
    "bad-won": gettext_lazy("Cards won earlier must be given per colour, like r1166.b22."),
    "bad-occupant": gettext_lazy(
        "Unknown card or dice on a position: use an attack card like b1 or dice like B."),
    "two-bell-rules": gettext_lazy("VAR-3 and the first-edition rule both replace the bell condition: "
                                   "choose one of them."),
    "invisible-title": gettext_lazy("The title holds only invisible characters: type a title people "
                                    "can read, or leave it empty."),
}


def _too_many_cards(p: dict) -> str:
    kind = AttackKind(p["value"])
    if p.get("owned") == 0:
        return _("%(colour)s plays without %(name)s cards in this game.") % {
            "colour": _colour(p), "name": CARD_NAMES[kind]}
    if p.get("owned") == 1:
        return _("%(colour)s already has its %(name)s on the board; each colour has only "
                 "one.") % {"colour": _colour(p), "name": CARD_NAMES[kind]}
    return _("%(colour)s has only %(owned)s %(name)s cards in this game, and they are all "
             "on the board already.") % {"colour": _colour(p), "owned": p["owned"],
                                         "name": CARD_NAMES[kind]}


def _bad_rule(p: dict) -> str:
    if p.get("flag"):
        return _("There is no rule switch “%(flag)s”: use the switches shown on this page.") % {
            "flag": str(p["flag"])[:20]}
    if p.get("key") == "place_after_reroll":
        return _("“Place right after a re-roll” is an option of strategy mode only.")
    if p.get("key"):
        return _("The rule setting %(key)s does not accept the value %(value)s.") % {
            "key": p.get("key"), "value": p.get("value", "")}
    return _("Unknown rule setting.")


def _bad_title(p: dict) -> str:
    if p.get("char"):
        return _("The title may have at most 120 characters and no control characters or "
                 "direction overrides, but character %(position)s is %(char)s.") % {
            "position": p.get("offset", 0) + 1, "char": p["char"]}
    return _("The title may have at most 120 characters and no control characters.")


def _duplicate_field(p: dict) -> str:
    if p.get("key"):  # a key of a JSON body
        return _("The key %(key)s is sent more than once: send it once.") % {"key": p["key"]}
    return _("This choice was sent more than once: choose one.")


def _bad_json(p: dict) -> str:
    if "line" in p:
        return _("The request body is not valid JSON (line %(line)s, column %(column)s).") % {
            "line": p["line"], "column": p.get("column", "?")}
    return _("The input is not valid JSON.")


def _bad_text(p: dict) -> str:
    if p.get("in_key"):
        return _("A key of the request body holds a lone surrogate (like \\ud800), which is not a "
                 "character: send valid Unicode.")
    return _("Text in %(field)s holds a lone surrogate (like \\ud800), which is not a character: send "
             "valid Unicode.") % {"field": p.get("path") or "body"}


# The JSON API's schemas (tutorials.api) name the field concerned in ``name``; the engine's
# own refusals with these codes have no name.
def _not_object(p: dict) -> str:
    if p.get("body"):
        return _("The request body must be a JSON object.")
    return _("The input must be a JSON object with players, start_player and board.")


def _bad_value(p: dict) -> str:
    if p.get("name"):
        return _("Value not allowed for %(field)s.") % {"field": p["name"]}
    return str(_VALUES) % facts()


def _not_found(p: dict) -> str:
    if p.get("what") == "route":
        return _("There is no API endpoint at this address.")
    if p.get("what") == "game":
        return _("No game is open under this id and key; games expire 24 hours after they start.")
    return _("No position is saved under this code.")


def _not_utf8(p: dict) -> str:
    if p.get("form"):
        return _("What was sent here is not text in UTF-8, so it could not be read: type it again.")
    return _("The request body must be JSON text in UTF-8.")


def _too_large(p: dict) -> str:
    if p.get("limit"):
        return _("The request is too large: at most %(limit)s KiB.") % {"limit": p["limit"]}
    return _("The request is too large.")


#: error code -> the sentence, from the error's parameters
_SENTENCES = {
    "too-large": _too_large,
    "method-not-allowed": lambda p: _("This endpoint does not accept %(method)s; allowed: %(allowed)s.") % {
        "method": p.get("method", ""), "allowed": p.get("allowed", "")},
    "http-status": lambda p: _("The request failed with HTTP status %(status)s.") % {
        "status": p.get("status", "")},
    "duplicate-field": _duplicate_field,
    "not-utf8": _not_utf8,
    "bad-title": _bad_title,
    "too-many-cards": _too_many_cards,
    "too-many-dice": lambda p: _(
        "%(colour)s has %(dice)s dice, enough for %(dice_cards)s cards; its dice are on "
        "%(dice_cards)s cards already.") % {**facts(), "colour": _colour(p)},
    "first-edition-two": lambda p: _(
        "With two players the bell already rings once dice lie on %(bell_cards)s cards anywhere, so the "
        "first-edition bell changes nothing: leave it out.") % facts(),
    "dice-time-over": lambda p: _(
        "Too late: Dice Time is already over, and %(colour)s is now the start player.") % {
        "colour": _colour(p)},
    "colour-not-seated": lambda p: _(
        "%(colour)s is not playing in this position. Seat it first.") % {"colour": _colour(p)},
    "occupant-without-treasure": lambda p: _(
        "Attack cards and dice must lie on a treasure card; %(at)s has none.") % {"at": _at(p)},
    "too-many-copies": lambda p: _(
        "The game has two treasure cards of each kind, but %(treasure)s appears "
        "%(count)s times (board and won cards).") % {"treasure": p["treasure"], "count": p["count"]},
    "too-many-treasures": lambda p: _(
        "That makes %(total)s treasure cards, but this game has only %(limit)s.") % p,
    "bad-notation": lambda p: _(
        "The position text could not be read at character %(offset)s: expected "
        "%(expected)s.") % {"offset": p.get("offset", 0) + 1,
                            "expected": expected_text(str(p.get("expected_code", "")))},
    "bad-won-text": lambda p: _(
        "The cards won earlier could not be read at character %(offset)s: expected "
        "%(expected)s. Write a colour letter, then the faces of each card: r1166.b22.") % {
        "offset": p.get("offset", 0) + 1,
        "expected": expected_text(str(p.get("expected_code", "")))},
    "bad-rule": _bad_rule,
    "unknown-key": lambda p: _("Unknown key: %(keys)s.") % {
        "keys": ", ".join(map(str, p.get("keys", [])))},
    "missing-key": lambda p: _("The key %(key)s is required.") % {"key": p.get("key", "")},
    "bad-json": _bad_json,
    "bad-text": _bad_text,
    "not-object": _not_object,
    "bad-value": _bad_value,
    "not-found": _not_found,
    "too-long": lambda p: _("Too long: %(field)s takes at most %(max)s characters.") % {
        "field": p.get("name", ""), "max": p.get("max", "?")},
    "bad-type": lambda p: _("Wrong type for %(field)s.") % {"field": p.get("name") or "body"},
}


#: What the rules forbid in a game (the engine's IllegalAction codes) and the games API's
#: own refusals, one sentence each.
_FIXED.update({
    "not-seated": gettext_lazy("That colour is not playing in this game."),
    "not-your-seat": gettext_lazy("That colour is played by a computer captain, not by you."),
    "game-over": gettext_lazy("The game is over."),
    "wrong-phase": gettext_lazy("That cannot be done in this phase of the round."),
    "not-start-player": gettext_lazy("Only the start player begins Dice Time."),
    "not-your-turn": gettext_lazy("It is not your turn."),
    "no-own-dice": gettext_lazy("An attack card goes on a card that holds your own dice."),
    "not-in-hand": gettext_lazy("That card or die is not in your hand."),
    "false-bell": gettext_lazy("You rang a false bell: you sit out the rest of this Dice Time."),
    "no-dice": gettext_lazy("You have no dice left in hand to roll."),
    "rerolled": gettext_lazy("You have re-rolled this turn already: now place a pair or pass."),
    "empty-reroll": gettext_lazy("Choose at least one die to re-roll."),
    "partial-reroll": gettext_lazy("In action mode you always re-roll all the dice in your hand."),
    "no-card": gettext_lazy("There is no treasure card at that position."),
    "occupied": gettext_lazy("That card already holds dice: someone claimed it first."),
    "no-pair": gettext_lazy("None of your dice in hand show that card's two faces."),
    "no-bell-in-strategy": gettext_lazy("Strategy mode has no bell: Dice Time ends when a line is full."),
    "no-pass": gettext_lazy("You may pass only right after a re-roll, with the strategy-mode option."),
    "bad-action": gettext_lazy("That is not an action: send one of the state's legal actions."),
    "unknown-action": gettext_lazy("That is not an action: send one of the state's legal actions."),
    "bad-strength": gettext_lazy("Each captain plays at one of the strengths random, greedy or strong."),
    "bad-pace": gettext_lazy("The pace is first-game, table, quick or fastest."),
    "bad-seed": gettext_lazy("The seed is a whole number from 0 to 2147483647."),
    "bad-version": gettext_lazy("The version is the whole number the state showed."),
    "nothing-to-continue": gettext_lazy("There is nothing to continue now: the round is under way."),
    "take-back-mode": gettext_lazy("Moves are taken back in strategy mode only: in action mode "
                                   "everyone plays at once."),
    "nothing-to-take-back": gettext_lazy("There is no move of yours in this round to take back."),
    "round-played": gettext_lazy("That round has been played out: a move can be taken back only while "
                                 "its round is being played."),
    # the practice game page's forms (tutorials.play): what a form of the page cannot send
    "play-bad-move": gettext_lazy("That move could not be read: choose one of the moves shown on the page."),
    "play-bad-card": gettext_lazy("Choose one of the attack cards in your hand."),
    "play-bad-dice": gettext_lazy("Dice are chosen by the faces they show, 1 to 6."),
    "play-bad-position": gettext_lazy("That position could not be read: choose a card on the board."),
    "play-no-version": gettext_lazy("This move came without the version of the page it was chosen on, so it "
                                    "was not made: choose it again on the game page."),
    # the presenter's board forms (tutorials.teach)
    "teach-no-version": gettext_lazy("This change came without the version of the table it was made on, so "
                                     "it was not made. This is the table as it is now: make it again."),
    "bad-dice": gettext_lazy("Choose 1 to %(dice)s dice to re-roll, each by the face it shows (1 to 6)."),
    "bad-strengths": gettext_lazy("Give a strength for every computer captain, and none for the learner."),
    "layout-shape": gettext_lazy("The starting grid is %(side)s×%(side)s with 3 or 4 players and "
                                 "%(side_2p)s×%(side_2p)s with 2."),
    "layout-square": gettext_lazy("A starting grid holds one treasure card on every position and "
                                  "nothing on them."),
    # the JSON API's own refusals (tutorials.api): its request bodies, its games
    "empty-body": gettext_lazy("The request body is empty; send a JSON object."),
    "too-deep": gettext_lazy("The request body nests arrays or objects inside each other too deeply; "
                             "no request of this API needs more than a few levels."),
    "unsupported-media-type": gettext_lazy("Send the request body as JSON, with the header Content-Type: "
                                           "application/json."),
    # answers no endpoint worded (tutorials.web.problem_json): a request refused before
    # any endpoint, an unknown route, a failed view
    "bad-request": gettext_lazy("The request could not be read."),
    "forbidden": gettext_lazy("This request is not allowed."),
    "rate-limited": gettext_lazy("Too many requests came from your network in a short time. Please try "
                                 "again later."),
    "server-error": gettext_lazy("Something went wrong on the server, so this request could not be "
                                 "answered. Please try again in a moment."),
    "unavailable": gettext_lazy("The server cannot answer right now. Please try again in a moment."),
    # refused by nginx in front (tutorials.web.proxy_site) before the site saw them
    "address-too-long": gettext_lazy("The request's address is too long for the server; send long "
                                     "input in a request body."),
    "headers-too-large": gettext_lazy("The request's headers are too large for the server."),
    "unknown-method": gettext_lazy("The server does not answer requests of this method."),
    "https-only": gettext_lazy("The server answers only over HTTPS: send the request again to the "
                               "address in the Location header."),
    "stale-version": gettext_lazy("The game has moved on since you chose this action: read it again and "
                                  "choose anew."),
})


def describe(error: RulesError) -> str:
    """One translated sentence saying what is wrong (and where, when known)."""
    code = error.code
    if code in _SENTENCES:
        return capfirst(_SENTENCES[code](error.params))
    if code in _FIXED:
        return capfirst(str(_FIXED[code]) % facts())
    return capfirst(_("This input is not allowed: %(detail)s") % {"detail": error.message})


def is_worded(code: str) -> bool:
    """Whether ``code`` has a sentence of its own here."""
    return code in _SENTENCES or code in _FIXED


def problem(error: RulesError, *, field: str | None = None) -> dict[str, object]:
    """A machine-readable problem for the JSON API: field, position, code, clause, message."""
    return {
        "field": field or error.field or "",
        "position": list(error.position) if error.position is not None else None,
        "offset": error.params.get("offset"),
        "code": error.code,
        "clause": error.clause,
        "message": describe(error),
    }
