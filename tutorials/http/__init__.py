"""HTTP plumbing every capability shares: response middlewares, rate limits, the
render limit, client addresses behind proxies, deploy checks, and what addresses carry
(numbers, grid positions, the analyzer's address)."""
