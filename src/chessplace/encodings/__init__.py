"""Encodings of a problem shared by the engines, export and certificates: rules as 0/1
constraints, CNF formulas, line colourings and lex-leader symmetry breaking.
"""
