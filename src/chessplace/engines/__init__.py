"""The engines: one interface (``base``), the ordered choice (``registry``), the race
(``portfolio``), and one module or package per engine with its compiled kernel.
"""
