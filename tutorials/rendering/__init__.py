"""HTML to PDF for the sheets and the teaching table's card: the one render path
(:mod:`.pdf`), run in whatever process serves the request (the render pool in production,
``gunicorn_pdf.conf.py``)."""
