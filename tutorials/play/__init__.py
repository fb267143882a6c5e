"""Play a practice game on the site (issue 19): the start form and the game page."""
