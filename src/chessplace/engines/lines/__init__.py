"""Branch and bound over line labellings for peaceable armies of a rider.

``geometry`` lays the lines out as arrays, ``bounds`` and ``kernel`` are the
compiled search, ``runner`` splits it into chunks over threads, ``engine``
is the ``lines`` engine the registry offers.
"""
