"""The untrusted side of certificates: writing a certificate for a proven answer
(witness, formula, symmetries, cubes and their proofs) from whichever engine answered.
"""
