"""Computer captains: players that decide only from what their seat at the table sees.

:mod:`.policies` holds the random and greedy players; :mod:`.strengths` the captains of
each strength built on them and on sampled look-ahead; :mod:`.pace` when a captain acts
in real time.
"""
