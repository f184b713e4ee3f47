"""The local web app: an HTTP API that mirrors the CLI, and a static front end."""
