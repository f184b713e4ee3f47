"""The ``regions`` engine (``engine``) and its compiled search (``kernel``)."""
