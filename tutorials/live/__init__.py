"""Live updates of the tables being taught: the bus that says "this table moved" across
processes and hosts, and the server-sent-event streams that pass it on to the screens
following a table."""
