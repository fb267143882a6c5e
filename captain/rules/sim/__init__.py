"""Computer play on top of the engine: players (policies), statistics over many games,
readable transcripts of seeded games, and the benchmark."""
