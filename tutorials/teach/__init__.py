"""Teaching a table: the script plan by player count, mode and variants; the presenter
and guest views."""
