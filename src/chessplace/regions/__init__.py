"""Region puzzles (Queens game, Star Battle) as a person solves them: the human-style
rules, their order and grade (deduction), and explanations of a solve.
"""
