"""Everything that touches the outside world: books, game directory, CLI."""
