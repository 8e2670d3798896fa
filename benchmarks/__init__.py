"""Benchmarks (`make bench`): speed figures, never assertions in the test suite."""
