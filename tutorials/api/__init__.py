"""The JSON API (django-ninja): endpoints, schemas, problem responses and the
middlewares that guard its request bodies."""
