"""The site: read-aloud tutorial, example boards (and later analyzer and sheets)."""
