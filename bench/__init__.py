"""Benchmarks with their own commands; figures printed as ratios."""
