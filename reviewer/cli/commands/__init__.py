"""One module per subcommand.

Each module defines ``register(subparsers)`` which adds its parser and sets
``func=<callable(args) -> int>``. ``reviewer.cli.main`` discovers the modules here, so
adding a command never means editing a shared list.
"""
