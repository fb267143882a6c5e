"""Printable PDF sheets: what they say, how they are rendered (in a low-priority child
process) and cached, and their views."""
