"""The site, one Django app with a subpackage per capability.

* :mod:`tutorials.tutorial` — the read-aloud tutorial and its example boards;
* :mod:`tutorials.analyzer` — "What happens here?", the position editor and its answers;
* :mod:`tutorials.teach` — teaching a table: presenter and guests;
* :mod:`tutorials.play` — a practice game against computer captains: the start form, the
  game page, its hints and its replay;
* :mod:`tutorials.practice` — the practice games on the server, shown without hidden
  information;
* :mod:`tutorials.sheets` — printable PDF sheets;
* :mod:`tutorials.api` — the JSON API.

They share :mod:`tutorials.walkthrough` (the step-by-step answer and the one way through
it), :mod:`tutorials.drawing` (SVG boards), :mod:`tutorials.wording`
(how the engine's events and errors are said in each language), :mod:`tutorials.web`
(middleware, error pages, limits, cookies, what addresses carry), :mod:`tutorials.live`
(tables' live updates), :mod:`tutorials.rendering` (HTML to PDF), :mod:`tutorials.services`
and :mod:`tutorials.models`. The
rules themselves live in :mod:`captain.rules`, which knows nothing of the site.
"""
