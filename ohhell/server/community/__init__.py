"""Accounts, ratings, statistics, duplicate events, the daily deal and post-game analysis."""
