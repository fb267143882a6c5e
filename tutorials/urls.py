from django.urls import path
from django.views.generic import RedirectView

from . import views

app_name = "tutorials"

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="tutorials:index", permanent=False), name="home"),
    path("tutorial/", views.tutorial_index, name="index"),
    path("rules/", views.rules_page, name="rules"),
    path("analyze/", views.analyze, name="analyze"),
    path("analyze/edit/", views.analyze_edit, name="analyze-edit"),
    path("analyze/save/", views.analyze_save, name="analyze-save"),
    path("tutorial/<slug:slug>/", views.tutorial_step, name="step"),
    path("tutorial/<slug:slug>/board/<slug:board_id>/", views.board_action, name="board"),
]
