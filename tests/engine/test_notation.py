"""Position notation: round trips, error offsets, rule checks, URL safety, size limit.

Offsets are 0-based character indexes into the notation; each bad string below names
the character the reader should point at and a phrase of what it expected there.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote

import pytest

from captain.rules import (
    BellRule,
    Board,
    Collection,
    Colour,
    InvalidInput,
    InvalidSituation,
    Mode,
    Position,
    RuleSet,
    Seating,
    Situation,
    SpeedOrder,
    Treasure,
    situation_from_json,
)
from captain.rules.game import Claim, RingStartBell, apply, new_game
from captain.rules.model import MAX_COLUMNS, MAX_ROWS
from captain.rules.notation import MAX_LENGTH, NotationError, parse, parse_unchecked
from captain.rules.typed import normalize_typed
from conformance import readable_case_files

R, B, G, W = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.WHITE

URL_SAFE = re.compile(r"^[A-Za-z0-9._~-]+$")


def readable_cases() -> list[Path]:
    return readable_case_files()


def round_trip(situation: Situation) -> str:
    text = situation.to_notation()
    assert URL_SAFE.match(text), text
    assert parse(text) == situation, text
    assert parse(text).to_notation() == text
    return text


# --- round trips --------------------------------------------------------------------------------

def test_there_are_shared_cases():
    assert len(readable_cases()) >= 10


@pytest.mark.parametrize("path", readable_cases(), ids=lambda p: p.stem)
def test_shared_case_positions_round_trip(path):
    situation = situation_from_json(json.loads(path.read_text(encoding="utf-8")))
    text = round_trip(situation)
    # the seats come first, the start player in upper case
    seats = text.split("_")[0]
    assert [c.letter for c in situation.players] == list(seats.lower())
    assert [ch for ch in seats if ch.isupper()] == [situation.seating.start_player.letter.upper()]


def test_a_known_position_reads_as_expected():
    s = parse("rB_11R.12.x-15.16B.22_rv1s_d12_wr11.b1234")
    assert s.players == (R, B) and s.seating.start_player == B
    assert s.board.to_rows() == ["11:R 12 --", "15 16:B 22"]
    assert s.rules == RuleSet(speed_order=SpeedOrder.REVERSED, mode=Mode.STRATEGY)
    assert s.deck == 12
    assert dict(s.won) == {R: (Treasure(1, 1),), B: (Treasure(1, 2), Treasure(3, 4))}


FLAG_RULES = [
    ("v1", RuleSet(speed_order=SpeedOrder.REVERSED)),
    ("v2", RuleSet(no_scouts=True)),
    ("v3", RuleSet(bell=BellRule.ALL_DICE)),
    ("v4", RuleSet(bell=BellRule.FIRST_EDITION)),
    ("s", RuleSet(mode=Mode.STRATEGY)),
    ("sp", RuleSet(mode=Mode.STRATEGY, place_after_reroll=True)),
    ("i", RuleSet(collection=Collection.SIMULTANEOUS)),
    ("v1v2v4spi", RuleSet(SpeedOrder.REVERSED, Collection.SIMULTANEOUS, Mode.STRATEGY, True,
                          BellRule.FIRST_EDITION, True)),
]


@pytest.mark.parametrize("flags, rules", FLAG_RULES, ids=[f for f, _ in FLAG_RULES])
def test_rule_flags_round_trip(flags, rules):
    situation = Situation(Board.parse(["11:r4 12", "13 14:b0"]), Seating((R, B), R), rules)
    assert round_trip(situation) == f"Rb_11r4.12-13.14b0_r{flags}"


def test_default_rules_write_no_rules_section():
    situation = Situation(Board.parse(["11 12", "13 14"]), Seating((R, B, G), G))
    assert round_trip(situation) == "rbG_11.12-13.14"


@pytest.mark.parametrize("deck", [0, 7, 26])
def test_deck_section_round_trips(deck):
    situation = Situation(Board.parse(["11 12 13", "14 --", "15"]), Seating((W, G), W), deck=deck)
    assert round_trip(situation) == f"Wg_11.12.13-14.x-15_d{deck}"


def test_won_section_round_trips_in_seat_order():
    won = {G: (Treasure(6, 6), Treasure(1, 2)), R: (Treasure(3, 3),), B: ()}
    situation = Situation(Board.parse(["11:G 12:R", "-- 13"]), Seating((R, B, G), B),
                          RuleSet(mode=Mode.STRATEGY), 3, won)
    text = round_trip(situation)
    assert text == "rBg_11G.12R-x.13_rs_d3_wr33.b.g6612"


def test_game_positions_round_trip():
    state = apply(new_game((R, B, G, W), seed=4, start_player=G), RingStartBell(G))
    assert round_trip(state.situation()).startswith("rbGw_")
    assert parse(state.situation().to_notation()).deck == 26


def test_dice_on_the_board_round_trip():
    state = apply(new_game((R, B), seed=2, start_player=R), RingStartBell(R))
    treasure = state.board.at(Position(0, 0)).treasure
    players = tuple(replace(p, dice=treasure.faces + (6, 6, 6, 6)) if p.colour == B else p
                    for p in state.players)
    state = apply(replace(state, players=players), Claim(B, Position(0, 0)))
    text = round_trip(state.situation())
    assert text.split("_")[1].startswith(f"{treasure}B.")


# --- what a paste brings along ----------------------------------------------------------------

#: white space and invisible characters a copy and paste leaves around a notation
SURROUNDING = {"space": " ", "tab": "\t", "cr-lf": "\r\n", "newline": "\n", "no-break space": "\u00a0",
               "ideographic space": "\u3000", "byte order mark": "\ufeff", "zero-width space": "\u200b",
               "word joiner": "\u2060", "left-to-right mark": "\u200e", "line separator": "\u2028",
               "narrow no-break space": "\u202f"}


@pytest.mark.parametrize("name", SURROUNDING)
@pytest.mark.parametrize("where", ["before", "after", "both"])
def test_a_notation_reads_with_what_surrounds_it_trimmed(name, where):
    text = "Rb_11r1.12b2_rs"
    blank = SURROUNDING[name]
    pasted = {"before": blank + text, "after": text + blank, "both": blank * 2 + text + blank}[where]
    assert normalize_typed(pasted) == text
    assert parse(pasted) == parse(text)
    assert parse_unchecked(pasted).to_notation() == text


def test_spaces_inside_stay_and_are_refused_where_they_were_sent():
    assert normalize_typed("\u3000Rb_11 12\u200b") == "Rb_11 12"
    with pytest.raises(NotationError) as info:
        parse("\u3000Rb_11 12\u200b")
    assert info.value.offset == 6  # counted in the text as sent, the ideographic space included
    assert normalize_typed(" \t\ufeff") == "" and normalize_typed("") == ""


def test_a_full_width_notation_reads_as_typed_on_a_japanese_keyboard():
    text = "Rbg_11.13r3.22.14-15.16b1.23_rs"
    full = "".join(chr(ord(c) + 0xFEE0) for c in text)
    assert parse(full) == parse(text)


def test_invisible_characters_inside_are_dropped_and_offsets_still_count_as_sent():
    assert parse("Rb_11\u200br1.12\u2060b2\U000e0041") == parse("Rb_11r1.12b2")
    with pytest.raises(NotationError) as info:
        parse("\u200bＲｂ\u200b＿１１．１")
    assert info.value.expected_code == "second-face" and info.value.offset == 9


def test_offsets_count_in_the_text_as_sent():
    with pytest.raises(NotationError) as info:
        parse("\ufeff\u00a0Rbg_11.1\r\n")
    assert info.value.offset == 10 and info.value.expected_code == "second-face"
    assert "ends there" in str(info.value)  # not "found '\\r'": the paste's end is not the notation


# --- errors with offsets --------------------------------------------------------------------------

BAD = [
    ("Rbg_11.1", 8, "a second die face"),
    ("Rbq_11", 2, "a colour letter"),
    ("rbg_11", 0, "the start player's letter in upper case"),
    ("Rb_53", 3, "the smaller face first (35)"),
    ("Rb_11_rs v1", 8, "'_' or the end"),
    ("Rb_11_rv3v4", 9, "only one bell variant"),
    ("Rb_11_rp", 7, "'p' only together with 's'"),
    ("Rb_11_rpi", 7, "'p' only together with 's'"),
    ("Rb_11_rsv1", 8, "in the order v1 v2 v3 v4 s p i"),
    ("Rb_11_rss", 8, "once each"),
    ("Rb_11_rv5", 8, "a variant number 1-4"),
    ("Rb_11_r", 7, "a rule flag"),
    ("Rb_11_rx", 7, "a rule flag"),
    ("Rb_11_d", 7, "the number of cards in the deck"),
    ("Rb_11_d1234", 7, "the number of cards in the deck"),
    ("Rb_11_d3_rs", 9, "in that order"),
    ("Rb_11_d3_d4", 9, "once each"),
    ("Rb_11_x", 6, "a section 'r' (rules), 'd' (deck) or 'w' (won)"),
    ("Rb_11_wg11", 7, "a seated colour"),
    ("Rb_11_wR11", 7, "a colour letter"),
    ("Rb_11_wr11.r22", 11, "each colour once"),
    ("Rb_11_wr31", 8, "the smaller face first (13)"),
    ("Rb_11_wr1", 9, "a second die face"),
    ("RB_11", 1, "only one start player"),
    ("Rbb_11", 2, "a colour not yet seated"),
    ("R_11", 1, "2 to 4 colour letters"),
    ("Rbgwr_11", 4, "a colour not yet seated"),
    ("", 0, "2 to 4 colour letters"),
    ("Rbg", 3, "'_' after the seats"),
    ("Rb11", 2, "a colour letter"),
    ("Rb_", 3, "a die face (1-6) or 'x'"),
    ("Rb_17", 4, "a second die face"),
    ("Rb_07", 3, "a die face (1-6) or 'x'"),
    ("Rb_11r7", 6, "an attack value 0-5"),
    ("Rb_11r", 6, "an attack value 0-5"),
    ("Rb_xR", 4, "a treasure card under the occupant"),
    ("Rb_xr5", 4, "a treasure card under the occupant"),
    ("Rb_11..12", 6, "a die face (1-6) or 'x'"),
    ("Rb_11-", 6, "a die face (1-6) or 'x'"),
    ("Rb_11.12q", 8, "'.', '-', '_' or the end"),
    ("Rb_11 12", 5, "'.', '-', '_' or the end"),
    ("Rb_11/12", 5, "'.', '-', '_' or the end"),
    ("Rb_\u0661\u0661", 3, "a die face (1-6) or 'x'"),  # Arabic-Indic digits are not faces
]


@pytest.mark.parametrize("text, offset, expected", BAD, ids=[t or "empty" for t, _, _ in BAD])
def test_errors_name_the_offset_and_what_was_expected(text, offset, expected):
    with pytest.raises(NotationError) as info:
        parse_unchecked(text)
    err = info.value
    assert err.offset == offset, str(err)
    assert expected in err.expected, str(err)
    assert str(err).startswith(f"expected {err.expected} at character {offset}")
    assert err.code == "bad-notation" and err.params["offset"] == offset
    assert isinstance(err, InvalidInput)
    with pytest.raises(NotationError):
        parse(text)


def test_the_message_shows_what_was_found():
    with pytest.raises(NotationError) as info:
        parse("Rbq_11")
    assert "found 'q'" in str(info.value)
    with pytest.raises(NotationError) as info:
        parse("Rbg_11.1")
    assert "ends there" in str(info.value)


def test_not_text_is_refused():
    with pytest.raises(InvalidInput):
        parse(["Rb_11"])  # type: ignore[arg-type]


# --- readable but against the rules ---------------------------------------------------------------

INVALID = [
    ("Rb_11r5.12r5.13r5", "SETUP-4", "too-many-cards"),       # two players keep two [5]
    ("Rbg_11r5.12r5.13r5.14r5.15r5", "SETUP-1", "too-many-cards"),
    ("Rbg_11r1.12r1", "SETUP-1", "too-many-cards"),
    ("Rb_11r5_rv2", "VAR-2", "too-many-cards"),
    ("Rb_11g5", "SETUP-1", "colour-not-seated"),
    ("Rb_11G", "SETUP-1", "colour-not-seated"),
    ("Rb_11R.12R.13R.14R", "SETUP-1", "too-many-dice"),
    ("Rb_11R.12b1", "SET-3", "dice-and-cards"),
    ("Rb_11.11.11", "SETUP-2", "too-many-copies"),
    ("Rb_11.12_wr11.b11", "SETUP-2", "too-many-copies"),
    ("Rb_11_d40", "SETUP-4", "too-many-treasures"),
    ("Rbg_11_d50", "SETUP-2", "too-many-treasures"),
]


@pytest.mark.parametrize("text, clause, code", INVALID, ids=[t for t, _, _ in INVALID])
def test_parse_rejects_positions_against_the_rules(text, clause, code):
    parse_unchecked(text)  # readable
    with pytest.raises(InvalidSituation) as info:
        parse(text)
    assert info.value.clause == clause, str(info.value)
    assert info.value.code == code


# --- URL safety and size --------------------------------------------------------------------------

@pytest.mark.parametrize("path", readable_cases(), ids=lambda p: p.stem)
def test_notation_is_url_safe(path):
    text = situation_from_json(json.loads(path.read_text(encoding="utf-8"))).to_notation()
    assert URL_SAFE.match(text)
    assert quote(text, safe="") == text


def test_a_3000_character_input_is_refused_quickly():
    text = "Rb_" + ".".join(["11"] * 999)
    assert len(text) >= 2990
    start = time.perf_counter()
    with pytest.raises(NotationError) as info:
        parse(text)
    assert time.perf_counter() - start < 0.05
    assert info.value.offset == MAX_LENGTH
    assert str(MAX_LENGTH) in info.value.expected


def test_the_largest_accepted_board_reads_quickly():
    text = "Rb_" + "-".join([".".join(["x"] * MAX_COLUMNS)] * MAX_ROWS)
    assert len(text) <= MAX_LENGTH
    start = time.perf_counter()
    situation = parse(text)
    assert time.perf_counter() - start < 0.5
    assert situation.board.shape == (MAX_ROWS, MAX_COLUMNS)


@pytest.mark.parametrize("text,offset", [
    ("Rb_" + ".".join(["x"] * 13), 3 + 2 * 12),
    ("Rb_" + "-".join(["11"] * 13), 3 + 3 * 12 - 1),
])
def test_boards_larger_than_12_by_12_are_refused(text, offset):
    with pytest.raises(NotationError) as info:
        parse(text)
    assert info.value.offset == offset
    assert "at most 12" in str(info.value)
