"""Web plumbing every capability shares: the middlewares, the site's error and refusal
pages, rate limits, client addresses behind proxies, signed cookies and link tokens,
compression, the page's language, the proxy's own pages, health and deploy checks, and
what addresses carry (numbers, grid positions, the analyzer's address)."""
