"""The GPU counting engine: canonical prefixes on the CPU, a CUDA search per prefix."""
