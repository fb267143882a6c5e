"""Play a practice game on the site: the start form and the game page."""
