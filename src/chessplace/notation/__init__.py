"""How people state problems: the named puzzles, squares and pieces as text (the
position a puzzle starts from), the user's rules as text, the options of the command
line and the HTTP API, and problem files read and written. It builds on the model
(``core``) and nothing above it.
"""
