"""Queries to ranked, aligned, side-by-side results, and the command line."""
