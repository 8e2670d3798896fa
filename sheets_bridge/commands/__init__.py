"""The larger commands of the forumwar CLI, each in its own module; `sheets_bridge.cli` assembles them."""
