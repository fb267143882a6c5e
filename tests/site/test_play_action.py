"""Action mode of the practice game on the site: the start form's mode, pace and
bell choices, the page that asks for the game area when the captains are due, a
claim that lost the race to a captain, and the learner ringing the bell.

The server's clock is replaced by a clock the test moves (``games._now``), so the captains
act exactly when the test lets time pass."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from captain.rules import Colour
from captain.rules.captains.pace import Pace
from captain.rules.errors import IllegalAction
from tests.site.play_helpers import start_game
from tutorials.models import PracticeGame
from tutorials.play.action import pace_choices
from tutorials.practice import games
from tutorials.wording.glossary import position_label
from tutorials.wording.problems import describe

pytestmark = pytest.mark.django_db

ACTION = {"players": "2", "colour": "red", "start": "me", "strength": "greedy",
          "collection": "sequential", "mode": "action", "pace": "first-game"}
HX = {"HTTP_HX_REQUEST": "true"}


def _start(client: Client, lang: str = "en", **choices) -> str:
    """An action-mode game started with ``choices``."""
    return start_game(client, lang, **(ACTION | choices))


def _version(html: str) -> str:
    return re.search(r'data-version="(\d+)"', html).group(1)


def _post(client: Client, url: str, html: str, **fields) -> str:
    response = client.post(url + "act/", {"version": _version(html), **fields}, **HX)
    assert response.status_code == 200, response.content.decode()[-3000:]
    return response.content.decode()


def _into_dice_time(client: Client, url: str) -> str:
    html = client.get(url).content.decode()
    html = _post(client, url, html, do="continue")
    assert 'data-testid="play-begin"' in html and "#DICE-1" in html
    html = _post(client, url, html, do="begin")
    assert 'data-testid="play-live"' in html
    return html


def test_the_start_form_offers_action_mode_its_pace_and_bells_and_says_it_needs_javascript():
    html = Client().get("/de/play/").content.decode()
    assert 'name="mode" value="action"' in html
    assert 'name="mode" value="strategy" id="mode-strategy" checked' in html
    for pace in ("first-game", "table", "quick", "fastest"):
        assert f'name="pace" value="{pace}"' in html, pace
    assert 'name="variants" value="v3"' in html and 'name="first_edition"' in html
    assert "<noscript>" in html and 'data-testid="action-needs-js"' in html
    with translation.override("de"):
        assert escape(translation.gettext(
            "JavaScript is off in this browser, so action mode cannot run in real time here: choose "
            "strategy mode, which works without it.")) in html


@pytest.mark.parametrize(("choices", "field"), [
    ({"place_after_reroll": "1"}, "place-after-reroll"),
    ({"mode": "strategy", "variants": ["v3"]}, "variants"),
    ({"first_edition": "1"}, "first-edition"),
    ({"players": "3", "first_edition": "1", "variants": ["v3"]}, "first-edition"),
    ({"mode": "strategy", "players": "3", "first_edition": "1"}, "first-edition"),
    ({"pace": "warp"}, "pace"),
    ({"mode": "real-time"}, "mode"),
])
def test_combinations_that_mean_nothing_are_refused_beside_the_field(choices, field):
    response = Client().post("/ja/play/", {**ACTION, **choices})
    assert response.status_code == 422
    html = response.content.decode()
    assert f'id="error-{field}"' in html, html[:200]
    for name, value in choices.items():
        for v in value if isinstance(value, list) else [value]:
            if name in ("mode", "pace") and v in ("real-time", "warp"):
                continue
            assert re.search(rf'name="{name}" value="{v}"[^>]* checked', html), (name, v)
    assert not PracticeGame.objects.exists()


def test_an_action_game_starts_with_its_pace_and_bell(clock):
    client = Client()
    url = _start(client, "de", players="3", pace="fastest", variants=["v3"])
    game = PracticeGame.objects.get()
    assert game.setup["pace"] == "fastest"
    assert game.setup["rules"] == {"bell": "all-dice"}  # action mode is the rules' default
    second = _start(client, "de", players="4", first_edition="1").rstrip("/").split("/")[-1]
    assert PracticeGame.objects.get(code=second).setup["rules"] == {"bell": "first-edition"}
    html = client.get(url).content.decode()
    assert 'data-testid="play-poll"' not in html  # the captains wait for the learner


def test_the_page_asks_when_the_captains_are_due_and_gets_the_area_once_they_moved(clock):
    client = Client()
    url = _start(client, "en")
    html = _into_dice_time(client, url)
    version = _version(html)
    timer = re.search(rf'id="play-poll" hidden hx-get="{re.escape(url)}\?version={version}" '
                      r'hx-trigger="every (\d+)ms"', html)
    assert timer, html[-3000:]
    # first-game pace: nobody moves in the opening; the page asks once it is over
    assert int(timer[1]) / 1000 > Pace.FIRST_GAME.opening_seconds
    assert 'data-testid="play-refresh"' in html  # without JavaScript: show the game now
    early = client.get(url, {"version": version}, **HX)  # asked before it was due: the timer alone
    assert early.status_code == 200 and early["HX-Retarget"] == "#play-poll"
    alone = early.content.decode()
    assert alone.strip().startswith('<div id="play-poll"') and "play-area" not in alone
    moved = None
    for _ in range(10):  # each time when the timer says (a captain's tick may do nothing)
        due = re.search(r'hx-trigger="every (\d+)ms"', (moved or early).content.decode())
        clock.wait(int(due[1]) / 1000)
        moved = client.get(url, {"version": version}, **HX)
        if "HX-Retarget" not in moved:
            break
    assert moved.status_code == 200 and "HX-Retarget" not in moved
    area = moved.content.decode()
    assert area.lstrip().startswith('<div id="play-area"') and "<html" not in area
    assert int(_version(area)) > int(version)
    assert client.get(url, {"version": _version(area)}, **HX)["HX-Retarget"] == "#play-poll"
    # a page without JavaScript always gets the whole page
    whole = client.get(url, {"version": _version(area)})
    assert whole.status_code == 200 and "HX-Retarget" not in whole and "<html" in whole.content.decode()
    # strategy mode, the learner to act: nothing is due, the page does not ask
    other = Client()
    strategy = other.get(_start(other, "en", mode="strategy")).content.decode()
    assert 'data-testid="play-poll"' not in strategy


def test_a_claim_a_captain_won_a_moment_earlier_is_refused_with_its_clause(clock):
    client = Client()
    url = _start(client, "de")
    html = _into_dice_time(client, url)
    code = url.rstrip("/").split("/")[-1]
    taken = None
    for _ in range(40):
        clock.wait(0.25)
        game = PracticeGame.objects.get(code=code)
        practice = games.catch_up(game, games.practice_of(game), now=clock.now)
        view = games.learner_view(game, practice)
        taken = next(((r, c) for r, row in enumerate(view["board"]) for c, cell in enumerate(row)
                      if cell["dice"] == "blue"), None)
        if taken:
            break
    assert taken, "the captain claimed nothing in ten seconds"
    r, c = taken
    # the learner's page still showed the card free: the move arrives after the captain's
    for headers in ({}, HX):  # htmx swaps the 422 too (base.html's responseHandling)
        refused = client.post(url + "act/", {"version": _version(html), "do": "claim", "at": f"{r}-{c}"},
                              **headers)
        assert refused.status_code == 422
        body = refused.content.decode()
        assert 'data-testid="play-refusal"' in body and 'href="/de/rules/#DICE-2"' in body
        with translation.override("de"):
            sentence = describe(IllegalAction("occupied", clause="DICE-2", code="occupied", position=[r, c]))
        assert escape(sentence) in body
        # the board as it stands now: the captain's dice on that card
        assert 'data-testid="play-stale"' not in body
        assert re.search(rf'class="[^"]*has-dice colour-blue[^"]*" data-pos="{position_label((r, c))}"', body)


def _until_the_bell_may_ring(client: Client, url: str, html: str) -> str:
    """No time passes, so the captains never act: the learner claims what their dice show,
    else re-rolls (the bell's condition on the page meanwhile), until the bell may ring."""
    for _ in range(300):
        if 'data-bell="ready"' in html:
            return html
        claim = re.search(r'name="do" value="claim"><input type="hidden" name="at" value="([\d-]+)"', html)
        if claim:
            html = _post(client, url, html, do="claim", at=claim.group(1))
        else:
            assert 'data-testid="play-bell-rule"' in html and "#DICE-5" in html
            html = _post(client, url, html, do="roll", dice=re.findall(r'name="dice" value="(\d)"', html))
    raise AssertionError("the bell could never ring")


def test_the_learner_rolls_claims_and_rings_the_bell(clock):
    """No time passes, so the captain never acts: the learner claims three cards
    (DICE-5) and rings."""
    client = Client()
    url = _start(client, "ja")
    html = _into_dice_time(client, url)
    html = _until_the_bell_may_ring(client, url, html)
    assert 'href="/ja/rules/#DICE-5"' in html
    html = _post(client, url, html, do="ring")
    game = PracticeGame.objects.get()
    assert game.log[-1][1] == {"type": "ring-bell", "player": "red"} and game.log[-1][2] is True
    assert 'data-testid="play-live"' not in html and 'data-testid="play-refusal"' not in html
    with translation.override("ja"):
        assert translation.pgettext("phase", "Setting Time") in html or "セッティングタイム" in html


def test_hints_in_action_mode_dice_time_and_setting_time(clock):
    """The graded hints are offered all round in action mode: in real-time Dice Time when
    the learner asks (worked out again as the board changes), and in Setting Time, which
    is taken in turns (SET-1)."""
    client = Client()
    url = _start(client, "de")
    html = _into_dice_time(client, url)
    assert 'data-testid="hint-link"' in html
    html = _until_the_bell_may_ring(client, url, html)
    html = _post(client, url, html, do="ring")
    assert 'data-testid="hint-link"' in html
    page = client.get(url + "?hint=2").content.decode()
    assert 'data-testid="hint-1"' in page and 'data-testid="hint-2"' in page
    assert re.search(r'href="/de/rules/#[A-Z]+-\d+"', page.split('data-testid="hint-2"')[1])


def test_a_reroll_without_dice_in_action_mode_rerolls_them_all(clock):
    """Action mode has one re-roll, all the dice in hand (DICE-3): a roll that names no dice
    re-rolls them all, never answered with strategy mode's "choose at least one die" (STRAT-2)."""
    client = Client()
    url = _start(client, "en", start="me")
    html = _into_dice_time(client, url)
    before = PracticeGame.objects.get().version
    html = _post(client, url, html, do="roll")
    assert "#STRAT-2" not in html and 'data-testid="play-refusal"' not in html
    game = PracticeGame.objects.get()
    assert game.version > before
    last = games.practice_of(game).log[-1].action
    assert type(last).__name__ == "Roll" and last.player.value == "red" and last.dice is None


def test_a_move_after_a_captain_ended_dice_time_says_too_late_and_why(clock):
    """A fresh learner pressed the bell a moment after a captain had rung and read "That
    cannot be done in this phase of the round. DICE-1"."""
    client = Client()
    url = _start(client, "de", start="me")
    html = _into_dice_time(client, url)
    code = url.rstrip("/").split("/")[-1]
    for _ in range(400):
        clock.wait(0.5)
        game = PracticeGame.objects.get(code=code)
        practice = games.catch_up(game, games.practice_of(game), now=clock.now)
        if practice.state.phase.value != "dice":
            break
    assert practice.state.phase.value == "setting", "the captain never ended Dice Time"
    refused = client.post(url + "act/", {"version": _version(html), "do": "ring"}, **HX)
    assert refused.status_code == 422
    body = refused.content.decode()
    notice = body.split('data-testid="play-refusal"')[1][:600]
    assert 'href="/de/rules/#DICE-5"' in notice and "#DICE-1" not in notice
    with translation.override("de"):
        sentence = describe(IllegalAction("over", clause="DICE-5", code="dice-time-over",
                                          colour=practice.state.start_player.value))
    assert escape(sentence) in body and sentence.startswith("Zu spät")


def test_the_bell_is_there_all_dice_time_and_ringing_too_early_is_a_false_bell(clock):
    """Spotting the bell condition is part of the game: the button is there from the start
    of Dice Time, and a ring before the condition holds is a false bell (DICE-6), said in
    the learner's language; the learner then sits out this Dice Time."""
    client = Client()
    url = _start(client, "de", players="3", start="me")
    html = _into_dice_time(client, url)
    assert 'data-testid="play-ring"' in html and 'data-bell="ready"' not in html
    assert 'href="/de/rules/#DICE-6"' in html
    html = _post(client, url, html, do="ring")
    game = PracticeGame.objects.get()
    assert game.log[-1][1] == {"type": "ring-bell", "player": "red"}
    assert games.practice_of(game).state.player(Colour.RED).false_bell
    assert 'data-testid="play-false-bell"' in html and 'data-testid="play-ring"' not in html
    with translation.override("de"):
        said = translation.gettext("You rang a false bell: you sit out the rest of this Dice Time.")
    assert said != "You rang a false bell: you sit out the rest of this Dice Time." and escape(said) in html
    refused = client.post(url + "act/", {"version": _version(html), "do": "roll"}, **HX)
    assert refused.status_code == 422 and 'href="/de/rules/#DICE-6"' in refused.content.decode()


def test_pace_command_prints_a_slow_first_game_and_faster_paces(capsys):
    call_command("pace_figures", rounds=12)
    out = capsys.readouterr().out
    rows = {(m[1], int(m[2])): (float(m[3]), float(m[4]))
            for m in re.finditer(r"^\s+([a-z-]+)\s+(\d)\s+([\d.]+)\s+([\d.]+)$", out, re.M)}
    assert len(rows) == len(Pace) * 3
    for players in (2, 3, 4):
        first, length = rows[("first-game", players)]
        assert first >= Pace.FIRST_GAME.opening_seconds
        assert rows[("table", players)][0] < first and rows[("table", players)][1] < length


@pytest.mark.parametrize("lang, five, point_eight", [("en", "5 s", "0.8 s"), ("de", "5 s", "0,8 s"),
                                                     ("ja", "5秒", "0.8秒")])
def test_every_pace_says_in_seconds_what_it_means(lang, five, point_eight):
    with translation.override(lang):
        labels = dict(pace_choices())
    assert five in labels["first-game"] and point_eight in labels["table"]
    assert len(set(labels.values())) == len(Pace)
