"""Practice games on the server: a learner against computer captains.

:mod:`.games` stores a game, advances the captains to the server's clock, applies the
learner's actions and shows the learner what a player at the table may see. The JSON API
(:mod:`tutorials.api.endpoints`) is its only caller so far; the pages come next.
"""
