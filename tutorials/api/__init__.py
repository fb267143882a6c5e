"""The JSON API (django-ninja): the API and its position endpoints (``endpoints``), the
practice games' endpoints (``games``), the bodies' schemas (``schemas``), reading and
writing the bodies (``bodies``), the one shape of every error (``problems``) and the
middlewares that guard the request bodies (``middleware``)."""
