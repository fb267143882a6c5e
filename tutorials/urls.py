"""The site's pages under a language prefix (``/ja/``, ``/en/``, ``/de/``), by capability.

Names stay in one namespace, ``tutorials:`` (``{% url 'tutorials:analyze' %}``).
"""

from django.urls import path
from django.views.generic import RedirectView

from tutorials.analyzer import views as analyzer
from tutorials.play import views as play
from tutorials.search import views as search
from tutorials.sheets import views as sheets
from tutorials.teach import card as teach_card
from tutorials.teach import handover, screen, seat_views, start
from tutorials.teach import views as teach
from tutorials.tutorial import views as tutorial

app_name = "tutorials"

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="tutorials:index", permanent=False,
                                  http_method_names=["get", "head"]), name="home"),
    # the tutorial and the rules reference
    path("tutorial/", tutorial.tutorial_index, name="index"),
    path("tutorial/<slug:slug>/", tutorial.tutorial_lesson, name="lesson"),
    path("tutorial/<slug:slug>/board/<slug:board_id>/", tutorial.board_action, name="board"),
    path("rules/", search.rules_page, name="rules"),
    path("rules/answers/", search.rules_answers, name="rules-answers"),
    # "What happens here?"
    path("analyze/", analyzer.analyze, name="analyze"),
    path("analyze/edit/", analyzer.analyze_edit, name="analyze-edit"),
    path("analyze/what-if/", analyzer.analyze_what_if, name="analyze-what-if"),
    path("analyze/save/", analyzer.analyze_save, name="analyze-save"),
    path("analyze/position.pdf", sheets.analyze_pdf, name="analyze-pdf"),
    # printable sheets
    path("sheets/", sheets.sheets_index, name="sheets"),
    path("sheets/<slug:name>.pdf", sheets.sheet_pdf_view, name="sheet-pdf"),
    path("sheets/<slug:name>.png", sheets.sheet_preview, name="sheet-preview"),
    # teaching a table
    path("teach/", start.teach_start, name="teach"),
    path("teach/join/", start.teach_find, name="teach-find"),
    path("teach/<slug:code>/", teach.teach_present, name="teach-present"),
    path("teach/<slug:code>/go/", teach.teach_go, name="teach-go"),
    path("teach/<slug:code>/poll/", teach.teach_present_poll, name="teach-present-poll"),
    path("teach/<slug:code>/card.pdf", teach_card.teach_card, name="teach-card"),
    path("teach/<slug:code>/screen/", screen.teach_screen, name="teach-screen"),
    path("teach/<slug:code>/board/<slug:board_id>/", teach.teach_board, name="teach-board"),
    path("teach/<slug:code>/seats/", seat_views.presenter_seats, name="teach-seats"),
    # the presenter's role moved to another device by a link that works once
    path("teach/<slug:code>/handover/", handover.teach_handover, name="teach-handover"),
    path("teach/<slug:code>/take/<str:key>/", handover.teach_take, name="teach-take"),
    # guests type codes any way (full-width, upper case, spaces): str, normalised in the view
    path("t/<str:code>/", teach.teach_guest, name="teach-guest"),
    path("t/<str:code>/poll/", teach.teach_poll, name="teach-poll"),
    path("t/<str:code>/seat/", seat_views.guest_seat, name="teach-seat"),
    path("t/<str:code>/mine/", seat_views.teach_seat_part, name="teach-seat-part"),
    path("t/<str:code>/hand/", seat_views.guest_hand, name="teach-hand"),
    # playing a practice game against computer captains
    path("play/", play.play_start, name="play"),
    path("play/guided/", play.play_guided, name="play-guided"),
    path("play/<slug:code>/", play.play_game, name="play-game"),
    path("play/<slug:code>/act/", play.play_act, name="play-act"),
    path("play/<slug:code>/replay/", play.play_replay, name="play-replay"),
    path("play/<slug:code>/shared/<slug:token>/", play.play_shared, name="play-shared"),
]
