"""Words of the site in every language: the glossary, clause summaries, the wording
of the engine's events (explanations) and of its errors (problems)."""
