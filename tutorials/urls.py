from django.urls import path
from django.views.generic import RedirectView

from . import teach_views, views

app_name = "tutorials"

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="tutorials:index", permanent=False,
                                  http_method_names=["get", "head"]), name="home"),
    path("tutorial/", views.tutorial_index, name="index"),
    path("rules/", views.rules_page, name="rules"),
    path("analyze/", views.analyze, name="analyze"),
    path("analyze/edit/", views.analyze_edit, name="analyze-edit"),
    path("analyze/save/", views.analyze_save, name="analyze-save"),
    path("analyze/position.pdf", views.analyze_pdf, name="analyze-pdf"),
    path("sheets/", views.sheets_index, name="sheets"),
    path("teach/", teach_views.teach_start, name="teach"),
    path("teach/join/", teach_views.teach_find, name="teach-find"),
    path("teach/<slug:code>/", teach_views.teach_present, name="teach-present"),
    path("teach/<slug:code>/go/", teach_views.teach_go, name="teach-go"),
    path("teach/<slug:code>/board/<slug:board_id>/", teach_views.teach_board, name="teach-board"),
    path("t/<slug:code>/", teach_views.teach_guest, name="teach-guest"),
    path("t/<slug:code>/poll/", teach_views.teach_poll, name="teach-poll"),
    path("sheets/<slug:name>.pdf", views.sheet_pdf_view, name="sheet-pdf"),
    path("sheets/<slug:name>.png", views.sheet_preview, name="sheet-preview"),
    path("tutorial/<slug:slug>/", views.tutorial_step, name="step"),
    path("tutorial/<slug:slug>/board/<slug:board_id>/", views.board_action, name="board"),
]
