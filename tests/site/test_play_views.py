"""Playing a practice game on the site (strategy mode without JavaScript): the
start form, the learner's cookie, refused and stale moves, and whole games played to the
end through plain form posts."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from tests.site.play_helpers import CHOICES, first_move, page_version, start_game
from tutorials.models import PracticeGame
from tutorials.play.rounds import history
from tutorials.practice import games
from tutorials.wording.events import explain
from tutorials.wording.phrases import card_phrase

pytestmark = pytest.mark.django_db


def _no_hidden_cards(html: str, game: PracticeGame, lang: str) -> None:
    """Captains' attack cards lie face down until Battle Time: their values are never on
    the page while they lie on the board."""
    state = games.practice_of(game).state
    with translation.override(lang):
        for row in state.board.rows:
            for cell in row:
                if cell.card is not None and cell.card.colour.value != game.setup["learner"]:
                    assert card_phrase(cell.card.token) not in html


def test_start_form_offers_strategy_mode_and_its_options():
    html = Client().get("/ja/play/").content.decode()
    for name in ("players", "colour", "start", "strength", "place_after_reroll", "variants", "collection"):
        assert f'name="{name}"' in html, name
    assert 'name="csrfmiddlewaretoken"' in html and "STRAT-4" in html and "INT-1" in html
    assert 'name="mode" value="action"' in html  # action mode: tests/site/test_play_action.py


@pytest.mark.parametrize("lang, strategy", [("en", "strategy mode"), ("de", "Strategiemodus"),
                                            ("ja", "戦略モード")])
def test_start_form_says_which_mode_suits_a_first_game(lang, strategy):
    html = Client().get(f"/{lang}/play/").content.decode()
    hint = re.search(r'data-testid="first-game-mode">([^<]+)<', html)[1]
    assert strategy in hint
    assert html.index("first-game-mode") < html.index('name="mode" value="strategy"')
    assert 'value="strategy" id="mode-strategy" checked' in html  # the form starts with it


def _rule_options(html: str) -> str:
    return re.search(r'<details class="rule-options"[^>]*>', html)[0]


def test_rule_options_are_folded_away_until_one_is_in_use_or_refused():
    """On a phone the form is one screen shorter with the rarely changed options folded;
    a refusal or a chosen option must never hide behind the fold."""
    html = Client().get("/en/play/").content.decode()
    assert " open" not in _rule_options(html) and "(no variant; this site's reading)" in html
    chosen = Client().post("/de/play/", {**CHOICES, "players": "5", "variants": ["v1"]}).content.decode()
    summary = chosen.split("</summary>")[0].rsplit("<summary>", 1)[1]
    assert " open" in _rule_options(chosen) and "VAR-1" in summary
    refused = Client().post("/ja/play/", {**CHOICES, "variants": ["v9"]})
    assert refused.status_code == 422
    html = refused.content.decode()
    assert " open" in _rule_options(html) and 'id="error-variants"' in html


def test_refused_choices_answer_422_with_reasons_and_keep_every_choice():
    client = Client()
    response = client.post("/de/play/", {**CHOICES, "players": "5", "strength": "godlike",
                                          "colour": "green", "variants": ["v1"],
                                          "place_after_reroll": "1", "collection": "simultaneous"})
    assert response.status_code == 422
    html = response.content.decode()
    assert 'id="error-players"' in html and 'id="error-strength"' in html
    assert 'id="error-colour"' not in html
    for kept in ('value="green" checked', 'value="v1" checked', 'name="place_after_reroll" value="1" checked',
                 'value="simultaneous" checked'):
        assert kept in html, kept
    assert not PracticeGame.objects.exists()
    with translation.override("de"):
        assert translation.gettext("Choose 2, 3 or 4 players.") in html


def test_start_deals_a_strategy_game_and_keeps_the_key_in_a_signed_httponly_cookie():
    client = Client()
    response = client.post("/ja/play/", {**CHOICES, "players": "3", "colour": "blue", "start": "me",
                                          "place_after_reroll": "1", "variants": ["v1", "v2"]})
    assert response.status_code == 302
    code = response["Location"].rstrip("/").split("/")[-1]
    assert response["Location"] == f"/ja/play/{code}/"
    cookie = response.cookies[f"play_{code}"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    game = PracticeGame.objects.get(code=code)
    assert game.setup["seats"] == ["blue", "red", "green"] and game.setup["learner"] == "blue"
    assert game.setup["start_player"] == "blue"
    assert game.setup["rules"] == {"mode": "strategy", "place_after_reroll": True,
                                   "speed_order": "reversed", "no_scouts": True}
    # the cookie is signed: the key itself opens the game, the raw cookie does not
    assert ":" in cookie.value
    page = client.get(response["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="play-begin"' in html and cookie.value not in html


def test_a_stranger_without_the_cookie_cannot_see_or_play_the_game():
    owner = Client()
    url = start_game(owner, "de")
    version = PracticeGame.objects.get().version
    stranger = Client()
    page = stranger.get(url)
    assert page.status_code == 404
    html = page.content.decode()
    assert '<html lang="de">' in html and 'data-testid="play-missing"' in html
    with translation.override("de"):
        assert translation.gettext("No game here") in html
    moved = stranger.post(url + "act/", {"do": "continue", "version": str(version)})
    assert moved.status_code == 404
    # another game's cookie does not open this one either
    other = Client()
    start_game(other, "de")
    assert other.get(url).status_code == 404
    assert PracticeGame.objects.get(code=url.rstrip("/").split("/")[-1]).version == version


def test_a_move_the_rules_forbid_is_refused_with_its_clause_in_the_learners_language():
    client = Client()
    url = start_game(client, "ja", start="me")
    html = client.get(url).content.decode()
    version = page_version(html)
    # placing an attack card before Setting Time
    refused = client.post(url + "act/", {"do": "place", "at": "0-0", "card": "3", "version": version})
    assert refused.status_code == 422
    body = refused.content.decode()
    assert 'data-testid="play-refusal"' in body and 'href="/ja/rules/#SET-1"' in body
    with translation.override("ja"):
        sentence = translation.gettext("That cannot be done in this phase of the round.")
    assert sentence in body and sentence != "That cannot be done in this phase of the round."
    assert page_version(body) == version  # nothing happened
    # a re-roll of no dice (STRAT-2), and something that is no move at all
    client.post(url + "act/", {"do": "begin", "version": version})
    version = page_version(client.get(url).content.decode())
    empty = client.post(url + "act/", {"do": "roll", "version": version})
    assert empty.status_code == 422 and "#STRAT-2" in empty.content.decode()
    nonsense = client.post(url + "act/", {"do": "fly", "version": version})
    assert nonsense.status_code == 422 and 'data-testid="play-refusal"' in nonsense.content.decode()


def test_a_move_from_an_older_page_answers_409_with_the_game_as_it_stands():
    client = Client()
    url = start_game(client, "en", start="me")
    old = page_version(client.get(url).content.decode())
    assert client.post(url + "act/", {"do": "begin", "version": old}).status_code == 303
    stale = client.post(url + "act/", {"do": "begin", "version": old})
    assert stale.status_code == 409
    html = stale.content.decode()
    assert 'data-testid="play-stale"' in html
    assert page_version(html) == str(PracticeGame.objects.get().version) != old
    assert 'data-testid="play-begin"' not in html  # Dice Time is under way


def test_htmx_posts_get_the_game_area_back():
    client = Client()
    url = start_game(client, "en", start="me")
    version = page_version(client.get(url).content.decode())
    swapped = client.post(url + "act/", {"do": "begin", "version": version}, headers={"HX-Request": "true"})
    assert swapped.status_code == 200
    html = swapped.content.decode()
    assert html.lstrip().startswith('<div id="play-area"') and "<html" not in html
    refused = client.post(url + "act/", {"do": "begin", "version": page_version(html)},
                          headers={"HX-Request": "true"})
    assert refused.status_code == 422 and "#DICE-1" in refused.content.decode()


@pytest.mark.parametrize("lang, choices", [
    ("ja", {}),
    ("de", {"players": "3", "colour": "white", "place_after_reroll": "1", "variants": ["v1"],
            "strength": "random", "collection": "simultaneous"}),
])
def test_a_whole_game_played_with_forms_ends_with_the_standings_in_the_learners_language(lang, choices):
    client = Client()
    url = start_game(client, lang, **choices)
    game = PracticeGame.objects.get()
    seen_steps = seen_setting = 0
    for _turn in range(1500):
        html = client.get(url).content.decode()
        assert f'<html lang="{lang}">' in html
        if 'name="do" value="place"' in html:
            seen_setting += 1
            _no_hidden_cards(html, game, lang)
        if 'data-testid="next-step"' in html and seen_steps < 3:
            # Battle and Treasure Time, step by step as in the analyzer
            step = client.get(url + "?step=1")
            assert step.status_code == 200 and f"/{lang}/rules/#BAT-" in step.content.decode()
            analyzer = re.search(r'href="([^"]+)" data-testid="open-analyzer"', html).group(1)
            assert client.get(analyzer.replace("&amp;", "&")).status_code == 200
            seen_steps += 1
        move = first_move(html)
        if move is None:
            break
        response = client.post(url + "act/", {**move, "version": page_version(html)})
        assert response.status_code == 303, (move, response.content.decode()[-3000:])
    else:
        raise AssertionError("the game did not end")
    game.refresh_from_db()
    practice = games.practice_of(game)
    assert practice.state.is_over and seen_steps and seen_setting
    html = client.get(re.search(r'href="([^"#]+)[^"]*" [^>]*data-testid="skip-to-result"', html).group(1)
                      .replace("&amp;", "&")).content.decode()
    with translation.override(lang):
        title = translation.gettext("Final standings")
    assert title != "Final standings" and title in html
    assert "#END-2" in html or "#END-3" in html
    standings, _winner = practice.state.standings()
    rows = re.findall(r"<tr><th scope=\"row\">.*?</th><td>(\d+)</td><td>(\d+)</td></tr>",
                      html[html.find('data-testid="final-standings"'):])
    assert [(int(a), int(b)) for a, b in rows] == [(s.cards, s.doubles) for s in standings]


def test_board_positions_post_a_claim_with_the_version_in_their_address():
    client = Client()
    url = start_game(client, "en", start="me")
    client.post(url + "act/", {"do": "begin", "version": page_version(client.get(url).content.decode())})
    for _turn in range(60):
        html = client.get(url).content.decode()
        cell = re.search(r'<form class="control-form" method="post" action="([^"]+\?version=(\d+))"'
                         r'.*?name="do" value="claim"><input type="hidden" name="at" value="([\d-]+)">'
                         r'<button type="submit" class="cell', html)
        if cell:
            action, version, at = cell.groups()
            assert version == page_version(html)
            assert client.post(action.replace("&amp;", "&"), {"do": "claim", "at": at}).status_code == 303
            assert int(page_version(client.get(url).content.decode())) > int(version)
            # the same position's old form again: the game moved on
            assert client.post(action, {"do": "claim", "at": at}).status_code == 409
            return
        move = first_move(html)
        client.post(url + "act/", {**move, "version": page_version(html)})
    raise AssertionError("no position could be claimed")


def test_odd_form_input_is_refused_clearly_never_a_crash(client):
    """Found by trying to break the page: digits that are not ASCII (² ①) crashed the
    step, version and round numbers; a field sent twice was silently the last; dice and
    cards the page never offers got the engine's English; a finished game's "continue"
    gave the wrong reason."""
    response = client.post("/en/play/", {**CHOICES, "players": ["2", "4"]})
    assert response.status_code == 422 and "sent more than once" in response.content.decode()
    url = start_game(client)
    for query in ("?step=%C2%B2", "?step=%E2%91%A0", "?version=%C2%B2", "replay/?round=%C2%B2"):
        assert client.get(url + query, HTTP_HX_REQUEST="true").status_code == 200, query
    html = client.get(url).content.decode()
    for fields, sentence in (({"do": "roll", "dice": "12"}, "Dice are chosen by the faces they show"),
                             ({"do": "zzz"}, "choose one of the moves shown"),
                             ({"do": "place", "card": "x", "at": "1-1"}, "Choose one of the attack cards"),
                             ({"do": "claim", "at": "1_1"}, "That position could not be read")):
        response = client.post(url + "act/", {"version": page_version(html), **fields})
        assert response.status_code == 422, fields
        assert sentence in response.content.decode(), fields
    # a move without a readable version is a broken form, not "the game moved on" (409)
    for version in ({"version": "²"}, {"version": "abc"}, {}):
        response = client.post(url + "act/", {**version, "do": "begin"})
        assert response.status_code == 422, version
        assert "came without the version of the page" in response.content.decode()
    response = client.post(url + "act/", {"version": page_version(html), "do": ["claim", "pass"],
                                          "at": "0-0"})
    assert response.status_code == 422 and "sent more than once" in response.content.decode()
    response = client.post(url + "act/", {"version": page_version(html), "do": "roll", "dice": ["1"] * 7})
    assert response.status_code == 422 and "Choose 1 to 6 dice to re-roll" in response.content.decode()
    assert client.post(url + "act/", "do=begin", content_type="text/plain").status_code == 415


@pytest.mark.parametrize("field, values", [
    ("place_after_reroll", ["1", "1"]), ("place_after_reroll", ["yes"]),
    ("first_edition", ["1", "on"]), ("first_edition", ["yes"])])
def test_a_box_sent_oddly_is_refused_never_read_as_unticked(client, field, values):
    """``place_after_reroll=1&place_after_reroll=1`` or ``=yes`` is refused with a reason,
    never read as an unticked box that starts a game without the option."""
    choices = {**CHOICES, "players": "3", "mode": "action", "pace": "table"} if field == "first_edition" \
        else CHOICES
    response = client.post("/de/play/", {**choices, field: values})
    assert response.status_code == 422
    error = "error-place-after-reroll" if field == "place_after_reroll" else "error-first-edition"
    assert f'id="{error}"' in response.content.decode()
    assert not PracticeGame.objects.exists()
    assert client.post("/de/play/", {**choices, field: "on"}).status_code == 302


def test_a_browser_keeps_the_keys_of_a_bounded_number_of_games(client):
    """Every game's key is a cookie sent with every request: starting game after game
    forgets the oldest, so the headers never outgrow the servers' limit."""
    from tutorials.play.views import LEARNER

    for _ in range(LEARNER.keep + 3):
        start_game(client)
    kept = [n for n, c in client.cookies.items() if n.startswith("play_") and c.value]
    assert len(kept) == LEARNER.keep


def test_strategy_mode_moves_on_by_itself_while_the_captains_play(client):
    """A fresh player waited on "the computer captains are playing" until they clicked:
    the answer to an htmx move shows the game before the captains' replies, so while a
    captain is to move the game area asks the server again (htmx), in strategy mode too,
    and the next answer shows their moves."""
    url = start_game(client, start="me")
    html = client.get(url).content.decode()
    waited = 0
    for _ in range(400):
        move = first_move(html)
        if move is None:
            break
        html = client.post(url + "act/", {"version": page_version(html), **move},
                           HTTP_HX_REQUEST="true").content.decode()
        if 'data-focus-id="play-refresh"' in html:  # the captains are to play
            assert 'data-testid="play-poll"' in html
            version = re.search(r'data-version="(\d+)"', html).group(1)
            poll = client.get(f"{url}?version={version}", HTTP_HX_REQUEST="true")
            assert poll.status_code == 200  # the captains' moves, played on this request
            html = poll.content.decode()
            waited += 1
    assert waited >= 3, "the captains never had to move after the learner"


def _treasure_won(html: str) -> list[int]:
    return [int(n) for n in re.findall(r"(\d+) treasure cards? won", html)]


def test_the_player_list_tells_no_treasure_ahead_of_the_steps():
    """Between rounds the round is shown step by step: at the first step every player has
    what they had before the round, at the last what they have after it."""
    client = Client()
    url = start_game(client, "en", players="3")
    for _turn in range(600):
        html = client.get(url).content.decode()
        if 'data-testid="next-step"' in html:
            game = PracticeGame.objects.get()
            state = games.practice_of(game).state
            after = [len(p.won) for p in state.players]
            if sum(after):  # a round in which someone won treasure
                break
        move = first_move(html)
        assert move is not None, "the game ended before anyone won treasure"
        client.post(url + "act/", {**move, "version": page_version(html)})
    else:
        raise AssertionError("no round won any treasure")
    played = history(games.practice_of(game))[0][-1]
    before_round = [len(played.situation.won.get(p.colour, ())) for p in state.players]
    assert before_round != after
    assert _treasure_won(client.get(url + "?step=0").content.decode()) == before_round
    end = client.get(url + "?step=999").content.decode()  # clamped to the last step
    assert _treasure_won(end) == after


def _log_with_fruitless_rerolls(client: Client) -> str | None:
    """Play a 4-player game with forms until "this round so far" cites INT-8 twice: that
    section's HTML, or None when the game ends first."""
    url = start_game(client, "en", players="4")
    for _turn in range(1500):
        html = client.get(url).content.decode()
        log = html[html.find('id="log-title"'):]
        log = log[:log.find("</section>")]
        if 'id="log-title"' in html and log.count("#INT-8") >= 2:
            return log
        move = first_move(html)
        if move is None:
            return None
        client.post(url + "act/", {**move, "version": page_version(html)})
    return None


def test_a_reading_is_explained_once_per_list_of_this_round_so_far():
    """After several fruitless re-rolls (INT-8) each list (the latest moves, the folded
    earlier ones) says the reading once; every such line still links to it."""
    for _game in range(5):
        log = _log_with_fruitless_rerolls(Client())
        if log:
            break
    else:
        raise AssertionError("five games without two fruitless re-rolls in one round")
    lists = re.findall(r"<ol class=\"explanations\".*?</ol>", log, re.S)
    for listed in lists:
        notes = re.findall(r'<span class="interpretation-note">([^<]*)</span>', listed)
        int8 = sum(n.startswith("Reading used here: a player who cannot claim") for n in notes)
        assert int8 == (1 if "#INT-8" in listed else 0), listed
    assert sum(listed.count("#INT-8") for listed in lists) >= 2


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_played_round_tells_who_ended_dice_time_and_every_move_before_battle_time(lang):
    """Under a round's steps (game page and replay): who ended Dice Time and so became
    start player (or that nobody could act any more), and the round's Dice and Setting
    Time move by move."""
    client = Client()
    url = start_game(client, lang, players="3")
    for _turn in range(600):
        html = client.get(url).content.decode()
        if 'data-testid="next-step"' in html:
            break
        move = first_move(html)
        assert move is not None
        client.post(url + "act/", {**move, "version": page_version(html)})
    game = PracticeGame.objects.get()
    played = history(games.practice_of(game))[0][-1]
    [end] = [e for e in played.told if e.code in ("dice.end", "dice.stuck")]
    with translation.override(lang):
        ending = explain(end).text
        placed = [explain(e).text for e in played.told if e.code == "setting.place"]
    replay = client.get(url + "replay/").content.decode()
    for page in (html, replay):
        story = page[page.index('data-testid="round-story"'):]
        story = story[:story.index("</section>")]
        assert ending in story.split("<details")[0]  # said before the fold
        assert placed and all(line in story for line in placed)


def test_the_round_steps_show_the_current_step_under_the_buttons_and_the_next_round_at_the_end():
    """On a phone the board stays on top: the step's own words come right under the step
    buttons (the list of earlier steps below them), and at the last step the next round is
    offered there, not after the whole list."""
    client = Client()
    url = start_game(client, "en", players="3")
    for _turn in range(600):
        html = client.get(url).content.decode()
        if 'data-testid="next-step"' in html:
            break
        client.post(url + "act/", {**first_move(html), "version": page_version(html)})
    steps = html[html.index('class="panel play-steps"'):]
    assert steps.index('data-testid="next-step"') < steps.index('data-testid="current-step"')
    assert 'class="explanations earlier"' not in steps  # step 1: nothing before it
    assert 'data-testid="steps-next-round"' not in html
    end = client.get(url + "?step=999").content.decode()
    steps = end[end.index('class="panel play-steps"'):]
    box = steps[steps.index('data-testid="current-step"'):]
    assert 'data-testid="steps-next-round"' in box, box[:3000]
    assert box.index('data-testid="steps-next-round"') < box.index('class="explanations earlier"')
    assert '"/en/rules/#END-1"' in box[:box.index('data-testid="steps-next-round"')]


def test_setting_time_says_why_dice_time_ended_at_the_top_of_the_moves():
    """A learner whose screen just turned to Setting Time read why only in the log at the
    bottom of the page."""
    client = Client()
    url = start_game(client, "ja", players="3")
    for _turn in range(600):
        html = client.get(url).content.decode()
        if "セッティングタイム" in html.split("</h1>")[0]:
            break
        client.post(url + "act/", {**first_move(html), "version": page_version(html)})
    moves = html[html.index('id="moves-title"'):]
    why = moves[:moves.index("</p>", moves.index('data-testid="dice-time-ended"'))]
    assert "親プレイヤー" in why and re.search(r'#(STRAT-3|DICE-4|DICE-5|DICE-1)"', why), why
