"""Template helpers: language-switch URLs and the game's translated names."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from urllib.parse import unquote, urlsplit, urlunsplit

from django import template
from django.conf import settings
from django.urls import (
    NoReverseMatch,
    Resolver404,
    ResolverMatch,
    get_script_prefix,
    get_urlconf,
    resolve,
    reverse,
)
from django.urls import translate_url as _translate_url
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from captain.rules import AttackKind, Colour
from tutorials.analyzer import markup
from tutorials.drawing import controls
from tutorials.drawing.diagrams import all_diagrams
from tutorials.drawing.svg import cell_svg as draw_cell
from tutorials.drawing.svg import range_svg
from tutorials.web.fragments import cached_html
from tutorials.web.language import chosen_url
from tutorials.wording.clauses import clause_summary
from tutorials.wording.facts import facts
from tutorials.wording.facts import table_facts as facts_of_table
from tutorials.wording.glossary import COLOUR_LETTERS, COLOUR_NAMES, COLUMN_LETTERS
from tutorials.wording.phrases import card_phrase as phrase

register = template.Library()


@register.filter
def translate_url(path: str, lang_code: str) -> str:
    """The same page (query string kept) in ``lang_code``."""
    return _translate_url(path, lang_code)


@register.filter
def colour_name(colour: Colour) -> str:
    """Translated colour name."""
    return str(COLOUR_NAMES[colour])


@register.filter
def colour_letter(colour: Colour) -> str:
    """Translated one-letter colour mark (R/B/G/W; 赤/青/緑/白)."""
    return str(COLOUR_LETTERS[colour])


@register.filter
def clause_text(clause: str) -> str:
    """One-sentence translated statement of a RULES.md clause."""
    return clause_summary(clause)


@register.simple_tag
def clause_link(clause: str) -> str:
    """``<a class="clause">BAT-3</a>``: the clause id linking to it on the rules page, its
    translated statement as the tooltip."""

    return format_html('<a class="clause" href="{}#{}" title="{}">{}</a>',
                       _rules_url(), clause, clause_summary(clause), clause)


@lru_cache(maxsize=8)
def _rules_url_for(language: str | None) -> str:
    return reverse("tutorials:rules")


def _rules_url() -> str:
    return _rules_url_for(get_language())


@register.inclusion_tag("tutorials/_card_table_rows.html", takes_context=True)
def card_table(context):
    """The attack cards with their range diagrams (BAT-4) and how many of each a player
    holds at the table being taught (``table`` in the context: 2 [5] cards with two
    players, none under VAR-2), else at a 3-4 player table."""
    table = context.get("table") or facts_of_table()
    scout = int(AttackKind.SCOUT_SHIP)
    rows = [{"d": d, "copies": table["scouts"] if d.value == scout else d.copies} for d in all_diagrams()]
    rows = [row for row in rows if row["copies"]]
    return {"rows": rows, "kinds": len(rows)}


#: Each language named in itself, for the switcher.
LANGUAGE_SELF_NAMES = {"ja": "日本語", "en": "English", "de": "Deutsch"}


@register.simple_tag(takes_context=True)
def language_links(context, page_url: str = "") -> list[dict[str, object]]:
    """The current page (path and query) in each language: code, name, url, current.

    ``page_url`` overrides the request's path: an htmx partial names the page it
    pushed into the address bar, so the switcher keeps the new state. Each url is marked
    as the visitor's choice (:func:`~tutorials.web.language.chosen_url`): following it
    stores the language in the language cookie, then shows the page at its clean address.
    """

    request = context["request"]
    current = get_language()
    path = page_url or request.get_full_path()
    match = _resolved(page_url) if page_url else getattr(request, "resolver_match", None)
    return [{"code": code, "name": LANGUAGE_SELF_NAMES.get(code, code),
             "url": chosen_url(_in_language(match, path, code), code), "current": code == current}
            for code, _name in settings.LANGUAGES]


def _resolved(url: str) -> ResolverMatch | None:
    """The route of ``url`` (a path, perhaps a query), resolved once for every
    language it is linked in, as :func:`~django.urls.translate_url` would resolve it."""
    try:
        return resolve(unquote(urlsplit(url).path))
    except Resolver404:
        return None


def _in_language(match, path: str, code: str) -> str:
    """``path`` in language ``code``; ``match`` is the request's resolved route when
    ``path`` is the request's own (spares resolving it again, once per language)."""
    if match is None or not match.url_name:
        return _translate_url(path, code)
    name = f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name
    with translation.override(code):
        try:
            url = reverse(name, args=match.args, kwargs=match.kwargs)
        except NoReverseMatch:
            return _translate_url(path, code)
    parts = urlsplit(path)  # the query and any #fragment stay as they were
    return urlunsplit(("", "", url, parts.query, parts.fragment))


@register.filter
def card_phrase(token: str) -> str:
    """``blue [1] Boarding Melee`` for ``b1``, in the active language."""

    return phrase(token)


@register.simple_tag
def game_facts() -> dict[str, int | str]:
    """``{% game_facts as facts %}``: the game's countable facts from the engine
    (:func:`tutorials.wording.facts.facts`), for messages that state them."""
    return facts()


@register.simple_tag(takes_context=True)
def table_facts(context) -> Mapping[str, int]:
    """``{% table_facts as table %}``: the numbers of the table being taught (the teaching
    pages put ``table`` in the context, :func:`tutorials.tutorial.teaching.script_context`), or of
    a 3-4 player table without variants elsewhere (:func:`tutorials.wording.facts.table_facts`)."""
    return context.get("table") or facts_of_table()


@register.filter
def read_time(minutes: float) -> str:
    """A reading time given in minutes, as people say it, to the nearest 5 seconds:
    ``4 min 25 s`` / ``4 Min. 25 s`` / ``4分25秒`` (``25 s`` under a minute)."""
    m, s = divmod(int(round(float(minutes) * 12)) * 5, 60)
    if not m:
        return _("%(s)d s") % {"s": s}
    if not s:
        return _("%(m)d min") % {"m": m}
    return _("%(m)d min %(s)d s") % {"m": m, "s": s}


@register.filter
def cards_won(positions) -> str:
    """``3 (A1, B2, C3)`` / ``3枚（A1、B2、C3）``: how many treasure cards and where, in a
    table of cards won (the whole format is translatable, counter word included)."""
    labels = [str(p) for p in positions]
    if not labels:
        return pgettext("no treasure cards won", "0")
    return ngettext("%(count)s (%(cards)s)", "%(count)s (%(cards)s)", len(labels)) % {
        "count": len(labels), "cards": pgettext("list separator", ", ").join(labels)}


@register.simple_tag
def test_hooks() -> bool:
    """Whether pages load the markers browser tests wait on (settings.TEST_HOOKS)."""
    return settings.TEST_HOOKS


@register.simple_tag
def list_separator() -> str:
    """The active language's list separator (``, `` or ``、``)."""

    return pgettext("list separator", ", ")


@register.simple_tag
def what_if_items(what_ifs) -> SafeString:
    """The what-if panel's list items: :func:`tutorials.analyzer.markup.what_if_items`."""
    return markup.what_if_items(what_ifs)


@register.simple_tag
def rule_toggle_items(toggles, refused) -> SafeString:
    """The rule switches: :func:`tutorials.analyzer.markup.rule_toggle_items`."""
    return markup.rule_toggle_items(toggles, bool(refused), clause_link)


@register.simple_tag
def seat_items(seats, undo_url) -> SafeString:
    """The seats' rows: :func:`tutorials.analyzer.markup.seat_items`."""
    return markup.seat_items(seats, undo_url)


@register.simple_tag
def separator() -> str:
    """The active language's mark between two short items on one line (`` · ``, or
    ``・`` in Japanese, whose middle dot is full-width and needs no spaces)."""
    return pgettext("separator between short items", " · ")


def _board_field(board: object, name: str) -> object:
    """``board.<name>`` as a template reads it (a key, else an attribute; "" when missing)."""
    if isinstance(board, Mapping):
        return board.get(name, "")
    return getattr(board, name, "")


def _posted_to(context) -> tuple[object, object]:
    """Where the surrounding board posts its moves, and the CSRF token (only if it posts)."""
    board = context.get("board")
    if not _board_field(board, "posts"):
        return "", ""
    return _board_field(board, "post_url"), context.get("csrf_token", "")


@register.simple_tag(takes_context=True)
def chip(context) -> str:
    """``tutorials/_chip.html``: the chip its ``include`` names (``url``, ``label``,
    ``active``, …), posted on a board whose moves are posted (``board.posts``)."""
    post_url, csrf_token = _posted_to(context)
    return controls.chip(**{name: context.get(name, "") for name in _CHIP_FIELDS},
                         number=context.get("number"), post_url=post_url, csrf_token=csrf_token)


_CHIP_FIELDS = ("url", "label", "focus_id", "active", "css", "key", "title", "letter", "colour")


@register.simple_tag(takes_context=True)
def action_fields(context) -> str:
    """``tutorials/_action_fields.html``: the hidden fields of the posted action ``url``."""
    return controls.action_fields(context.get("url"), context.get("csrf_token", ""))


@register.simple_tag(takes_context=True)
def chips(context, items) -> str:
    """``tutorials/_chips.html``: every chip of ``items`` (mappings of :func:`chip`'s names)."""
    post_url, csrf_token = _posted_to(context)
    return controls.chips(items, post_url=post_url, csrf_token=csrf_token)


@register.simple_tag(takes_context=True)
def board_grid(context, rows, post_url=None) -> str:
    """The whole board (:func:`tutorials.drawing.controls.grid`): ``{% board_grid rows %}``,
    or ``{% board_grid rows post_url=board.post_url %}`` for a board whose cells post forms
    (they carry the page's CSRF token). ``rows`` may be ragged; the widest row sets the
    columns."""
    width = max((len(row) for row in rows), default=0)
    csrf_token = context.get("csrf_token", "") if post_url else ""
    return controls.grid(rows, columns=COLUMN_LETTERS[:width], board_label=_("Board"),
                         post_url=post_url or "", csrf_token=csrf_token)


@register.filter
def cell_svg(cell) -> str:
    """One cell drawn (:func:`tutorials.drawing.svg.cell_svg`)."""
    return draw_cell(cell)


@register.filter(name="range_svg")
def range_svg_filter(diagram) -> str:
    """A card's range diagram from the shared SVG renderer."""

    return range_svg(diagram)


@register.filter
def dict_get(mapping, key):
    """``mapping[key]`` in templates (keys with dashes, like clause ids)."""
    return mapping.get(key, "")


@register.filter
def list_join(items) -> str:
    """Join with the active language's list separator (``, `` / ``、``)."""

    return pgettext("list separator", ", ").join(str(i) for i in items)


@register.simple_tag
def lesson_url(slug: str, audience=None) -> str:
    """``{% lesson_url lesson.slug audience %}``: a tutorial lesson's address, keeping
    the audience it is read for (:class:`~tutorials.tutorial.audience.Audience`)."""
    url = reverse("tutorials:lesson", args=[slug])
    return audience.with_query(url) if audience is not None else url


@register.simple_tag
def tutorial_url(audience=None) -> str:
    """The tutorial's contents for the audience it is read for."""
    url = reverse("tutorials:index")
    return audience.with_query(url) if audience is not None else url


@register.filter
def lesson_title(lesson, audience) -> str:
    """A lesson's title for the audience it is read for (strategy mode has its own for two)."""
    return lesson.title_for(audience.strategy)


class _CachedFragment(template.Node):
    def __init__(self, nodelist: template.NodeList, name: str, key: template.base.FilterExpression) -> None:
        self.nodelist, self.name, self.key = nodelist, name, key

    def render(self, context) -> str:
        key = self.key.resolve(context)
        return mark_safe(cached_html(self.name, key, lambda: self.nodelist.render(context)))


@register.tag
def cached_fragment(parser, token) -> _CachedFragment:
    """``{% cached_fragment name key %}…{% endcached_fragment %}``: the enclosed HTML rendered
    once per ``key`` (a hash of all it shows, such as an analyzer page's ``fragment_key``)
    and served from the shared cache after that. Nothing inside may depend on the request
    beyond what ``key`` holds (no CSRF token)."""
    bits = token.split_contents()
    if len(bits) != 3:
        raise template.TemplateSyntaxError("cached_fragment takes a name and a key")
    nodelist = parser.parse(("endcached_fragment",))
    parser.delete_first_token()
    return _CachedFragment(nodelist, bits[1], parser.compile_filter(bits[2]))


class _KeptFragment(template.Node):
    #: more than the site's languages × its named routes: past it, something varies that
    #: should not, and the kept copies are dropped rather than grown without end
    LIMIT = 1000

    def __init__(self, nodelist: template.NodeList, vary: list[template.base.FilterExpression]) -> None:
        self.nodelist, self.vary = nodelist, vary
        # kept on the compiled node: a template compiled anew (a template edited while the
        # development server runs) starts empty
        self.kept: dict[tuple, str] = {}

    def render(self, context) -> str:
        key = (get_language(), get_script_prefix(), get_urlconf(), settings.ROOT_URLCONF,
               *(value.resolve(context) for value in self.vary))
        html = self.kept.get(key)
        if html is None:
            if len(self.kept) >= self.LIMIT:
                self.kept.clear()
            html = self.kept[key] = self.nodelist.render(context)
        return html


@register.tag
def kept_fragment(parser, token) -> _KeptFragment:
    """``{% kept_fragment [value …] %}…{% endkept_fragment %}``: the enclosed HTML rendered
    once per process, language and ``value``\\ s, then kept in memory: the site's header,
    navigation and footer, the same on every page but for the route that marks its link as
    current. Nothing inside may depend on anything else of the request (no CSRF token, no
    address of the page itself)."""
    vary = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    nodelist = parser.parse(("endkept_fragment",))
    parser.delete_first_token()
    return _KeptFragment(nodelist, vary)
