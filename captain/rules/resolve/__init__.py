"""Answers about one moment of the game: the bell (Dice Time), Battle Time, Treasure
Time, the end of the round, and :func:`~captain.rules.resolve.solve.solve`, which runs
every question that applies to a situation."""
