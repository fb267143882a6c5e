"""HTML to PDF for the sheets and the teaching table's card: the one render path
(:mod:`.pdf`), the WeasyPrint work itself (:mod:`.pdf_worker`), the render children that
run it, and the host's render limit."""
