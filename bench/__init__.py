"""Benchmarks: each prints a table (python -m bench.<name>)."""
