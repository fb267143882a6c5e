"""Every form post of the site refuses a body that is not a form (JSON, plain text) the same
way: 415, a page in the reader's language, the problem code, and nothing done."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext

from tutorials.models import PracticeGame, SavedPosition, Table

pytestmark = pytest.mark.django_db

FORM_POSTS = ["/{lang}/teach/", "/{lang}/teach/ABCD2345/go/", "/{lang}/teach/ABCD2345/board/b1/",
              "/{lang}/play/", "/{lang}/play/abcdefgh/act/", "/{lang}/analyze/save/"]


@pytest.mark.parametrize("path", FORM_POSTS)
@pytest.mark.parametrize("content_type, body", [("application/json", '{"players": "4"}'),
                                                ("text/plain", "players=4")])
@pytest.mark.parametrize("lang", ["de", "ja"])
def test_a_form_post_that_is_not_a_form_is_refused_in_the_readers_language(client, path, content_type,
                                                                          body, lang):
    counts = (Table.objects.count(), PracticeGame.objects.count(), SavedPosition.objects.count())
    response = client.post(path.format(lang=lang), body, content_type=content_type)
    assert response.status_code == 415
    assert response["Problem-Code"] == "unsupported-media-type"
    html = response.content.decode()
    assert f'lang="{lang}"' in html and 'data-kind="media-type"' in html
    with translation.override(lang):
        heading = gettext("This was not sent as a form")
    assert heading != "This was not sent as a form" and heading in html
    assert (Table.objects.count(), PracticeGame.objects.count(),
            SavedPosition.objects.count()) == counts
