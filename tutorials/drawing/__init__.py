"""Drawing boards: the view of one cell and what choosing it does, SVG boards for pages
and PDFs, diagrams (the page's markup around them is in templates)."""
