"""The tutorial: the read-aloud script, the worked examples of RULES.md, the
interactive example boards driven by the engine, the predict-the-outcome checks."""
