"""Errors every layer may raise to refuse a request."""


class BadRequest(ValueError):
    """The task's rules refuse the request; the message is one line for the user."""
