"""Drawing boards: the view of one cell, SVG boards for pages and PDFs, diagrams, and
the step-by-step walkthrough of an engine answer."""
