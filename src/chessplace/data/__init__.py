"""Reference data shipped with the package: known sequence values (``oeis.json``)."""
