"""Meaning checks: names, kinds and types of a parsed game, and whole-game checks, with hints."""
