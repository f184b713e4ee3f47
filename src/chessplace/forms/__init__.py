"""Forms of an answer: text boards, SVG/PNG drawings, JSON. Renderers draw the marks
they are given; only :mod:`.drawing` asks the checker for them.
"""
