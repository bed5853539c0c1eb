"""Bots: seats that decide on their own, from their own view."""
