"""Services the engines share, not engines themselves: counts made of parts
(``tally``), classes up to symmetry by SAT, one member each (``classcount``), a count's size
guessed before it starts (``estimate``), the smallest set of givens that cannot be
completed (``why``), the cover search of domination (``coversearch``) and where Numba
keeps its kernels (``jitcache``)."""
