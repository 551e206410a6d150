"""The texts of the account, player, ratings, event and daily-deal pages of the web client.

Served as ``/i18n/community/{lang}.json`` (:func:`community_catalog`) beside the table's
catalog, from the same gettext catalogs: the pages show no text of their own. Plural texts
come as their forms; the page picks one with the table's ``plural_index``.

>>> catalog = community_catalog("en")
>>> catalog["texts"]["sign_in"], catalog["plurals"]["rated_games"]
('Sign in', ['%(count)d rated game', '%(count)d rated games'])
"""

from __future__ import annotations

import functools
from typing import Any, Final

from ohhell.i18n import N_, normalize_language, translations
from ohhell.server.community.ratings import FAMILIES, FAMILY_NAMES


def ngettext(singular: str, plural: str, count: int = 2) -> tuple[str, str]:
    """A marker for the extractor (translated per language by :func:`community_catalog`)."""
    return singular, plural


TEXTS: Final[dict[str, str]] = {
    # navigation
    "nav_daily": N_("Daily deal"),
    "nav_events": N_("Events"),
    "nav_ratings": N_("Ratings"),
    "nav_account": N_("Account"),
    # accounts
    "account_title": N_("Your account"),
    "guest_intro": N_("Accounts are optional: guests play with a name and a link. An account keeps your games, "
                      "your figures and your rating; the games played in this browser come with you when you "
                      "sign up."),
    "sign_in": N_("Sign in"),
    "sign_up": N_("Create an account"),
    "user_name": N_("User name"),
    "password": N_("Password"),
    "current_password": N_("Current password"),
    "new_password": N_("New password"),
    "signed_in_as": N_("Signed in as %(name)s"),
    "sign_out": N_("Sign out"),
    "sign_out_everywhere": N_("Sign out everywhere"),
    "change_password": N_("Change the password"),
    "password_changed": N_("The password is changed; every other session has ended."),
    "delete_account": N_("Delete the account"),
    "delete_warning": N_("Your games stay, under the name “Former player”; your rating goes. This cannot be "
                         "undone."),
    "my_page": N_("My page"),
    "my_tables": N_("My tables"),
    "status_waiting": N_("waiting"),
    "status_playing": N_("playing"),
    "status_finished": N_("finished"),
    # player and bot pages
    "member_since": N_("Playing here since %(date)s"),
    "bot_title": N_("Bot: %(level)s"),
    "ratings_title": N_("Ratings"),
    "rating_range": N_("from %(low)s to %(high)s"),
    "provisional": N_("provisional"),
    "fixed": N_("fixed"),
    "bot_scale": N_("A bot's rating is fixed: its strength measured in the arena, %(elo)s on the Elo scale of "
                    "the bots' documentation, converted to the scale of these pages (the club player is 1500 on "
                    "both)."),
    "rating_chart": N_("Rating after each rated game"),
    "statistics": N_("Figures"),
    "games_played": N_("Games"),
    "wins": N_("Wins"),
    "average_place": N_("Average place"),
    "points_per_hand": N_("Points per hand"),
    "bids_made": N_("Bids made"),
    "zero_bids": N_("Zero bids made"),
    "hook_as_dealer": N_("As dealer under the hook"),
    "dealer_without_hook": N_("As dealer, no hook situation"),
    "by_hand_size": N_("By hand size"),
    "by_bid": N_("By bid"),
    "cards": N_("Cards"),
    "bid": N_("Bid"),
    "made": N_("Made"),
    "hands": N_("Hands"),
    "finished_games": N_("Finished games"),
    "no_games": N_("No finished games yet."),
    "date": N_("Date"),
    "rules": N_("Rules"),
    "place": N_("Place"),
    "total": N_("Total"),
    "points_by_hand": N_("Points hand by hand"),
    "rated": N_("rated"),
    "record": N_("record"),
    "analysis": N_("analysis"),
    # ratings
    "ratings_intro": N_("A rating is μ with its uncertainty σ: the true strength is almost surely within two σ "
                        "of μ, the range shown. New players are provisional until the range narrows; the list is "
                        "ordered by μ − 3σ, the strength we are sure of. Rated games only; bots count at a fixed "
                        "rating."),
    "rank": N_("Rank"),
    "player": N_("Player"),
    "rating": N_("Rating"),
    "nobody_rated": N_("Nobody is rated in this family yet."),
    # events
    "events_title": N_("Duplicate events"),
    "events_intro": N_("Every table plays the same cards in the same seats. Each hand is scored against the "
                       "other tables: a point for every table you beat in your seat, half for a tie "
                       "(matchpoints). Luck of the deal cancels out."),
    "create_event": N_("Create an event"),
    "event_name": N_("Event name"),
    "tables_count": N_("Tables"),
    "seats_of_tables": N_("Who sits where (the same at every table)"),
    "person": N_("a person"),
    "table_n": N_("Table %(n)d"),
    "table": N_("Table"),
    "recent_events": N_("Recent events"),
    "commitment": N_("Deals committed: %(hash)s"),
    "seed_revealed": N_("Seed revealed: %(seed)s"),
    "pool_open": N_("Contributions to the deals so far: %(count)s. They close when the first cards are dealt."),
    "pool_closed": N_("Contributions to the deals: %(count)s, closed when the first cards were dealt."),
    "own_in_pool": N_("Your browser's contribution is in it: %(value)s"),
    "own_not_in_pool": N_("Your browser's contribution is not in it: %(value)s"),
    "tomorrow_committed": N_("Tomorrow's deal is committed: %(hash)s. Your browser sends it a contribution."),
    "take_seat": N_("Take this seat"),
    "go_to_table": N_("Go to your table"),
    "standings": N_("Standings"),
    "matchpoints": N_("Matchpoints"),
    "compare_hand": N_("Hand %(n)d at every table"),
    "export_records": N_("Download every record"),
    "event_over": N_("The event is over."),
    "share_link": N_("Send this page's address to the players: each takes a free seat."),
    # daily
    "daily_title": N_("The daily deal"),
    "daily_intro": N_("One game's cards for everyone today, against the strong bots. One try each; when you "
                      "finish you see how everyone did with the same cards."),
    "play_today": N_("Play today's deal"),
    "continue_today": N_("Back to your game"),
    "daily_results": N_("Results of %(day)s"),
    "you": N_("you"),
    "finish_first": N_("Finish today's deal to see how everyone did."),
    "yesterday": N_("Yesterday's deal: seed %(seed)s"),
}

PLURALS: Final[dict[str, tuple[str, str]]] = {
    "games_claimed": ngettext("%(count)d game played in this browser is now yours.",
                              "%(count)d games played in this browser are now yours."),
    "rated_games": ngettext("%(count)d rated game", "%(count)d rated games"),
    "hands_played": ngettext("%(count)d hand played", "%(count)d hands played"),
    "hands_compared": ngettext("%(count)d hand compared", "%(count)d hands compared"),
    "players_today": ngettext("%(count)d player so far", "%(count)d players so far"),
}


@functools.cache
def community_catalog(language: str) -> dict[str, Any]:
    """The pages' texts in ``language``: ``texts``, ``plurals`` (the forms the table's
    ``plural_index`` picks from) and the rating families' names and descriptions."""
    language = normalize_language(language)
    catalog = translations(language)
    plural_of = getattr(catalog, "plural", None)
    counts: list[int] = []
    seen: set[int] = set()
    for n in range(200):  # one sample number for each form, in the form's order
        form = int(plural_of(n)) if plural_of is not None else (0 if n == 1 else 1)
        if form not in seen:
            seen.add(form)
            counts.append(n)
    counts.sort(key=lambda n: int(plural_of(n)) if plural_of is not None else (0 if n == 1 else 1))
    return {
        "language": language,
        "texts": {key: catalog.gettext(text) for key, text in TEXTS.items()},
        "plurals": {key: [catalog.ngettext(one, many, n) for n in counts] for key, (one, many) in PLURALS.items()},
        "families": {family: {"name": catalog.gettext(FAMILY_NAMES[family]), "about": catalog.gettext(about)}
                     for family, about in FAMILIES.items()},
    }
