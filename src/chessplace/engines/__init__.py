"""The engines: one interface (``base``), the ordered choice (``registry``), the race
(``portfolio``), and one module or package per engine with its compiled kernel.
"""

from chessplace.engines.support.jitcache import ensure_cache_dir

ensure_cache_dir()  # before any kernel is defined
