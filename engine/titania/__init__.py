"""Titania: the province-and-Strength rule set (seed 002; titania.md §10 with the (a) readings).

`engine.titania.adjudicate.adjudicate(data, seed)` resolves one turn of a `titania.adjudicate.v1` or `.v2` situation.
"""
