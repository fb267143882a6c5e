"""Practice games on the server: a learner against computer captains.

:mod:`.games` stores a game, advances the captains to the server's clock, applies the
learner's actions and shows the learner what a player at the table may see. Its callers
are the game page (:mod:`tutorials.play`) and the JSON API (:mod:`tutorials.api.games`).
"""
