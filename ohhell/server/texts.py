"""Every text of the web app, from the gettext catalogs of :mod:`ohhell.i18n`.

The browser client shows no text of its own: it asks ``/i18n/{lang}.json`` for
:func:`client_catalog`, built here from the same catalogs as the rest of ohhell, so one
translation feeds the terminal, the server's messages and the web page alike.

Texts are marked with ``N_`` (one form) and with the local ``ngettext`` marker (a
sentence whose form depends on a number); the extractor collects both. A plural text
reaches the client as its forms plus a table saying which form each number takes, so
Slavic languages get their three forms without the browser knowing the plural rule.

>>> catalog = client_catalog("en")
>>> catalog["texts"]["create_table"], catalog["plurals"]["tricks_n"]
('Create a table', ['%(count)d trick', '%(count)d tricks'])
>>> catalog["plural_index"][:3]
[1, 0, 1]
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from typing import Any, Final

from ohhell.i18n import (
    BOT_LEVEL_NAMES,
    LANGUAGE_NAMES,
    LANGUAGES,
    N_,
    joker_label,
    level_name,
    normalize_language,
    rank_letters,
    translations,
)
from ohhell.i18n import speaking as i18n_speaking


def ngettext(singular: str, plural: str, count: int = 2) -> tuple[str, str]:
    """A marker for the extractor: the two English forms of a plural text (translated later,
    per language, by :func:`client_catalog`)."""
    return singular, plural


def pgettext(context: str, message: str) -> tuple[str, str]:
    """A marker for the extractor: a text with its context (translated later, per language, by
    :func:`client_catalog`)."""
    return context, message


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """Make the engine's messages (``ohhell.i18n._``) speak ``language`` inside the block, naming
    cards as people see them (``10♥``, not the records' ``TH``).

    The switch holds for this context only (:func:`ohhell.i18n.speaking`): the server answers
    many requests at once in one thread and awaits inside this block, and each request and
    connection runs in its own asyncio task, whose context nobody else sees.
    """
    with i18n_speaking(language, cards_as_seen=True):
        yield


CLIENT_TEXTS: Final[dict[str, str]] = {
    # -- the lobby
    "app_title": N_("Oh Hell"),
    "tagline": N_("Play Oh Hell with friends and bots. No account needed."),
    "create_table": N_("Create a table"),
    "your_name": N_("Your name"),
    "preset": N_("Rules"),
    "players": N_("Players"),
    "seat_n": N_("Seat %(n)d"),
    "seat_you": N_("You"),
    "seat_open": N_("A friend (open seat)"),
    "bot_level": N_("Bot: %(level)s"),
    "turn_timer": N_("Turn timer"),
    "no_timer": N_("No timer"),
    "seconds_n": N_("%(n)d seconds"),
    "more_rules": N_("Change any rule"),
    "knob_default": N_("as the preset says"),
    "rules_changed": N_("Changed from the preset: %(knobs)s."),
    "money_title": N_("For money, at %(stake)s per point:"),
    "money_pays": N_("%(payer)s pays %(payee)s %(amount)s"),
    "money_nobody": N_("Nobody pays: every total is the average."),
    "create": N_("Create"),
    "join_by_code": N_("Join a table"),
    "code": N_("Table code"),
    "join": N_("Join"),
    "watch": N_("Watch"),
    "my_tables": N_("Your tables"),
    "scorekeeper": N_("Scorekeeper for real cards"),
    "language": N_("Language"),
    "rules_explained": N_("The rules in plain words"),
    "name_required": N_("Please enter your name."),
    "bad_code": N_("There is no table with that code."),
    "choose_bot_levels": N_("Who sits at the table"),
    # -- joining
    "join_title": N_("Join table %(code)s"),
    "take_seat": N_("Take a seat"),
    "table_full": N_("Every seat is taken. You can watch the game."),
    "invite": N_("Invite friends: send them this link"),
    "copy": N_("Copy"),
    "copied": N_("Copied"),
    "your_link": N_("Your own link (to continue on another device; keep it secret)"),
    "waiting_for_players": N_("Waiting for players to join…"),
    "start_now": N_("Start now (bots take the open seats)"),
    "only_host_starts": N_("The game starts when every seat is taken, or when the host starts it."),
    # -- the table
    "table_code": N_("Table %(code)s"),
    "spectating": N_("You are watching. You see no one's cards."),
    "latecomer_note": N_("At the next hand you take the seat of %(name)s. "
                         "Until then you watch; you see no one's cards."),
    "latecomer_join": N_("The game is on: you take a bot's seat at the start of the next hand."),
    "latecomers_setting": N_("People who come later take a bot's seat at the next hand"),
    "hand_of": N_("Hand %(n)d of %(count)d"),
    "hand_open": N_("Hand %(n)d"),
    "cards_each": N_("%(n)d cards each"),
    "dealer": N_("Dealer"),
    "trump": N_("Trump"),
    "no_trump": N_("No trump"),
    "turned_card": N_("Turned card"),
    "bid": N_("Bid"),
    "bids": N_("Bids"),
    "tricks": N_("Tricks"),
    "score": N_("Score"),
    "total": N_("Total"),
    "your_turn": N_("Your turn"),
    "your_bid": N_("Your bid: how many tricks will you take?"),
    "forbidden_bid": N_("As the dealer you may not bid %(bid)d: the bids would add up to the number of cards."),
    "change_bid": N_("Change your bid"),
    "keep_bid": N_("Keep my bid"),
    "waiting_for": N_("Waiting for %(name)s"),
    "waiting_for_bids": N_("Waiting for the bids"),
    "bid_secret": N_("Bids are secret until everyone has bid."),
    "has_bid": N_("has bid"),
    "current_trick": N_("This trick"),
    "last_trick": N_("Last trick"),
    "show_last_trick": N_("Look at the last trick"),
    "hide_last_trick": N_("Back to the table"),
    "won_by": N_("Won by %(name)s"),
    "hint": N_("Hint"),
    "hint_says": N_("A bot suggests: %(action)s"),
    "declare_joker": N_("Your joker: high (wins the trick) or low (loses it)?"),
    "choose_trump": N_("Yours is the highest bid: choose the trump suit."),
    "choose_trump_suit": N_("Choose %(suit)s as trump"),
    "waiting_for_trump": N_("Waiting for %(name)s, the highest bidder, to choose trump."),
    "name_chooses_trump": N_("%(name)s chooses trump"),
    "trump_after_bidding": N_("chosen after the bidding"),
    "trump_chooser_is": N_("%(name)s chooses"),
    "trump_chosen_by": N_("chosen by %(name)s"),
    "joker_high": N_("High"),
    "joker_low": N_("Low"),
    "blind_hand": N_("You cannot see your own card in this hand; you see everyone else's."),
    "play_hidden": N_("Play your card"),
    "score_sheet": N_("Score sheet"),
    "chart": N_("Totals after each hand"),
    "game_over": N_("The game is over"),
    "draws": N_("Cut for the deal"),
    "away_notice": N_("A bot is playing for you."),
    "im_back": N_("I'm back"),
    "status_online": N_("online"),
    "status_offline": N_("offline"),
    "status_away": N_("a bot plays for them"),
    "status_bot": N_("bot"),
    "status_open": N_("open seat"),
    "time_left": N_("%(seconds)d s left"),
    "reconnecting": N_("Connection lost. Reconnecting…"),
    "connected": N_("Connected"),
    "history": N_("History"),
    "replay": N_("Replay"),
    "export_record": N_("Export the record (ohhell/1)"),
    "export_csv": N_("Export as CSV"),
    "previous": N_("Previous"),
    "next": N_("Next"),
    "deal": N_("The deal"),
    "trick_n": N_("Trick %(n)d"),
    "back_to_lobby": N_("Lobby"),
    "rules": N_("Rules"),
    "close": N_("Close"),
    "new_game": N_("New table"),
    "bid_word": N_("bid %(bid)d"),
    "play_word": N_("play %(card)s"),
    "declare_high": N_("declare the joker high"),
    "declare_low": N_("declare the joker low"),
    "made_probability": N_("chance of making the bid"),
    "not_your_turn": N_("Not your turn"),
    "game_not_started": N_("The game has not started yet."),
    "seat_kind_bot": N_("Bot %(n)d (%(level)s)"),
    # -- the card table (issue 14)
    "the_table": N_("The table"),
    "tools": N_("Table tools"),
    "bot_n": N_("Bot %(n)d"),
    "on_turn": N_("on turn"),
    "your_turn_play": N_("Your turn: play a card"),
    "suit_led": N_("%(suit)s led"),
    "your_cards": N_("Your cards"),
    "card_playable": N_("playable"),
    "card_not_playable": N_("not playable now"),
    "card_spoken": N_("%(rank)s of %(suit)s"),
    "card_hidden": N_("a face-down card"),
    "card_joker": N_("joker"),
    "played_by": N_("%(name)s: %(card)s"),
    "name_bids": N_("%(name)s is bidding"),
    "name_leads": N_("%(name)s leads"),
    "needs_more": N_("needs %(n)d more"),
    "bid_made": N_("made"),
    "on_target": N_("on target"),
    "bid_missed": N_("missed"),
    "seat_bid_tricks": N_("bid %(bid)d, won %(tricks)d"),
    "bids_of": N_("Bids %(sum)d of %(size)d"),
    "bids_even": N_("even"),
    "bid_forbidden_label": N_("%(bid)d: not allowed for the dealer"),
    "forbidden_bid_other": N_("%(name)s deals and may not bid %(bid)d: "
                              "the bids must not add up to the number of cards."),
    "hand_done": N_("Hand %(n)d is over"),
    "player": N_("Player"),
    "points": N_("Points"),
    "continue": N_("Continue"),
    "place_n": N_("Place %(n)d"),
    "place_shared": N_("Place %(n)d (shared)"),
    "rematch": N_("Rematch"),
    "rematch_host": N_("The host can start a rematch at this table."),
    "rematch_offer": N_("The host started a rematch. Play again?"),
    "rematch_play": N_("Play again"),
    "rematch_leave": N_("Leave"),
    "not_available": N_("This server does not offer that yet."),
    "paused": N_("The game is paused until a player comes back."),
    "chat": N_("Chat"),
    "chat_message": N_("Message"),
    "chat_placeholder": N_("Say something to the table"),
    "chat_left": N_("%(n)d of %(max)d characters left"),
    "chat_limit": N_("That is the limit: %(max)d characters."),
    "chat_unavailable": N_("This server has no chat."),
    "send": N_("Send"),
    "mute_chat": N_("Mute the chat"),
    "mute_name": N_("Hide the messages of %(name)s"),
    "unmute_name": N_("Show the messages of %(name)s again"),
    "muted_names": N_("Hidden"),
    "reactions": N_("Quick reactions"),
    "react_with": N_("React with %(reaction)s"),
    "reaction_thumbs": N_("thumbs up"),
    "reaction_clap": N_("applause"),
    "reaction_wow": N_("surprise"),
    "reaction_laugh": N_("laughter"),
    "reaction_sad": N_("sadness"),
    "reaction_fire": N_("fire"),
    "settings": N_("Settings"),
    "pref_sound": N_("Sounds (your turn, cards)"),
    "pref_four_colour": N_("Four-colour deck (♦ blue, ♣ green)"),
    "pref_motion": N_("Moving cards"),
    "pref_notify": N_("Notify me when it is my turn and this tab is hidden"),
    "pref_teach": N_("After each hand, say what the strong bot would have bid with my cards"),
    "teach_line": N_("With your cards the strong bot would have bid %(bid)d (you bid %(mine)d)."),
    "teach_same": N_("With your cards the strong bot would have bid %(bid)d too."),
    "pref_note": N_("These settings are kept in this browser."),
    "timed_out_notice": N_("Your time ran out, so a bot played this turn for you. "
                           "If it runs out twice in a row, a bot takes over until you press \"I'm back\"."),
    "status_fallback": N_("stand-in bot (the chosen bot failed)"),
    "spectator": N_("Spectator"),
    "sheet_legend": N_("Each cell: bid / tricks taken, the hand's points, the running total. "
                       "The dealer's cell is shaded."),
    "no_hands_yet": N_("No hand has been finished yet."),
    "hand_label": N_("Hand"),
    "timer_none": N_("No timer"),
    "timer_relaxed": N_("Relaxed (60 s a turn)"),
    "timer_fast": N_("Fast (15 s a turn)"),
    "rank_2": N_("two"), "rank_3": N_("three"), "rank_4": N_("four"), "rank_5": N_("five"),
    "rank_6": N_("six"), "rank_7": N_("seven"), "rank_8": N_("eight"), "rank_9": N_("nine"),
    "rank_T": N_("ten"), "rank_J": N_("jack"), "rank_Q": N_("queen"), "rank_K": N_("king"), "rank_A": N_("ace"),
    # -- the header and the lobby: the community pages (their own texts are community_texts.py's)
    "nav_label": N_("Site"),
    "nav_daily": N_("Daily deal"),
    "nav_events": N_("Events"),
    "nav_ratings": N_("Ratings"),
    "nav_account": N_("Account"),
    "menu": N_("Menu"),
    "daily_intro": N_("One game's cards for everyone today, against the strong bots. One try each; when you "
                      "finish you see how everyone did with the same cards."),
    "events_intro": N_("Every table plays the same cards in the same seats. Each hand is scored against the "
                       "other tables: a point for every table you beat in your seat, half for a tie "
                       "(matchpoints). Luck of the deal cancels out."),
    "status_waiting": N_("waiting"),
    "status_playing": N_("playing"),
    "status_finished": N_("finished"),
    "status_paused": N_("paused"),
    "next_game": N_("rematch: %(code)s"),
    "rated_game": N_("Rated game"),
    "rated_hint": N_("The game counts for the rating of everyone at the table who has an account; you play as "
                     "%(name)s."),
    "status_stand_in": N_("stand-in bot"),
    # -- the history page of a game: the analysis and the fair deals (issue 16)
    "history_of": N_("History of table %(code)s"),
    "game_history_link": N_("Analysis and fair deals"),
    "back_to_table": N_("Back to the table"),
    "game_in_progress": N_("The game is still being played: here are its finished hands."),
    "analysis": N_("Analysis"),
    "analysis_running": N_("The strong bot is reviewing every decision of the game. This takes up to a minute…"),
    "analysis_after": N_("The analysis is made once the game is over."),
    "analysis_intro": N_("Every decision was reviewed by the strong bot from the player's own view "
                         "(%(simulations)s); the open hands were solved exactly."),
    "analysis_thresholds": N_("The cost of a decision is the points it lost against the bot's choice; as a share of "
                              "what the bid was worth it is a small slip from %(slip)d%%, a mistake from "
                              "%(mistake)d%%, a blunder from %(blunder)d%%."),
    "accuracy": N_("accuracy"),
    "points_lost": N_("points lost"),
    "bids_made": N_("bids made"),
    "bids_sure": N_("sure"),
    "bids_gambles": N_("gambles"),
    "bids_impossible": N_("impossible"),
    "costliest": N_("The costliest decisions"),
    "nothing_lost": N_("No decision lost anything the bot could see."),
    "hand_by_hand": N_("Hand by hand"),
    "open_hands_intro": N_("With every card face up, what each player could make:"),
    "hand_title": N_("Hand %(hand)d (%(cards)s, %(trump)s)"),
    "trump_suit": N_("trump %(suit)s"),
    "no_trump_lower": N_("no trump"),
    "label_slip": N_("small slip"),
    "label_mistake": N_("mistake"),
    "label_blunder": N_("blunder"),
    "verdict_sure": N_("a sure thing"),
    "verdict_gamble": N_("a gamble"),
    "verdict_impossible": N_("impossible"),
    "not_settled": N_("not settled"),
    "open_hand_bid": N_("%(name)s bid %(bid)d and took %(tricks)d: %(verdict)s."),
    "open_hand_no_bid": N_("%(name)s did not bid and took %(tricks)d."),
    "open_hand_counts": N_("For certain: %(sure)s; with help: %(help)s; impossible: %(never)s."),
    "decision_bid": N_("Hand %(hand)d: %(name)s bid %(action)s; the bot prefers %(best)s, expecting %(better)s points "
                       "instead of %(taken)s"),
    "decision_declare_chance": N_("Hand %(hand)d, trick %(trick)d: %(name)s declared the joker %(action)s; the bot "
                                  "prefers %(best)s: %(best_chance)s instead of %(taken_chance)s to make the bid, a "
                                  "cost of %(cost)s points"),
    "decision_play_chance": N_("Hand %(hand)d, trick %(trick)d: %(name)s played %(action)s; the bot prefers %(best)s: "
                               "%(best_chance)s instead of %(taken_chance)s to make the bid, a cost of %(cost)s "
                               "points"),
    "decision_declare": N_("Hand %(hand)d, trick %(trick)d: %(name)s declared the joker %(action)s; the bot prefers "
                           "%(best)s, expecting %(better)s points instead of %(taken)s"),
    "decision_play": N_("Hand %(hand)d, trick %(trick)d: %(name)s played %(action)s; the bot prefers %(best)s, "
                        "expecting %(better)s points instead of %(taken)s"),
    "joker_high_word": N_("high"),
    "joker_low_word": N_("low"),
    "no_slip_in_hand": N_("No decision of this hand lost more than a little."),
    "cards_dealt": N_("Cards dealt"),
    "fair_title": N_("Fair deals"),
    "fair_all_verified": N_("Every deal of this game is verified: the cards came from the seeds committed before "
                            "each hand and from the players' own random numbers."),
    "fair_not_all": N_("Not every deal could be verified: each hand below says why."),
    "fair_how": N_("Before each hand the server published a hash of its secret seed; the browser of every seated "
                   "person added a random number of its own; after the hand the seed was revealed. Anyone can "
                   "recompute the deals from the record with “ohhell verify”."),
    "fair_verified": N_("verified"),
    "fair_not_verified": N_("not verified"),
    "fair_commitment": N_("Commitment"),
    "fair_seed": N_("Seed"),
    "fair_contributions": N_("Contributions"),
    "fair_missing_bot": N_("a bot: no contribution"),
    "fair_missing_timeout": N_("no answer in time"),
    "fair_missing_away": N_("away: no contribution"),
    "fair_own_in": N_("your contribution: ✔ in the deal"),
    "fair_own_other": N_("your contribution: ✘ not in the record (this browser sent %(value)s)"),
    "fair_own_refused": N_("your contribution came too late for this deal"),
    "fair_yours": N_("This deal includes your randomness (provably fair deals)"),
    "fair_data": N_("The numbers"),
    # -- the scorekeeper
    "sk_title": N_("Scorekeeper"),
    "sk_intro": N_("Keep the score of a game played with real cards: enter each bid and the tricks taken."),
    "sk_names": N_("Players, in seating order (first dealer first)"),
    "sk_add_player": N_("Add a player"),
    "sk_remove_player": N_("Remove"),
    "sk_start": N_("Start the scoresheet"),
    "sk_enter_bid": N_("%(name)s bids"),
    "sk_enter_tricks": N_("Tricks taken"),
    "sk_tricks_must_add_up": N_("The tricks must add up to %(n)d."),
    "sk_save_tricks": N_("Score the hand"),
    "sk_trump_entry": N_("Turned card or trump suit (optional)"),
    "sk_set_trump": N_("Set"),
    "sk_edit": N_("Edit"),
    "sk_save": N_("Save"),
    "sk_cancel": N_("Cancel"),
    "sk_undo": N_("Undo"),
    "sk_link": N_("Bookmark this page to come back to the sheet."),
    "sk_edit_hand": N_("Edit hand %(n)d"),
    "sk_in_progress": N_("in progress"),
    "sk_stats": N_("Bids made"),
    "sk_first_dealer": N_("First dealer"),
    "sk_players_in_order": N_("Players, in seating order (clockwise)"),
    "sk_setup": N_("The game as you play it"),
    "sk_made": N_("Made it"),
    "sk_made_label": N_("%(name)s made the bid (%(bid)d)"),
    "sk_bid_of": N_("bid %(bid)s"),
    "sk_tricks_hint": N_("Type each player's tricks, or tap Made it when they took their bid; "
                         "one player left empty takes the tricks that are left."),
    "sk_synced": N_("Saved on the server."),
    "sk_sending": N_("Sending the changes…"),
    "sk_offline": N_("No network: the sheet is kept on this phone and goes on."),
    "sk_no_network": N_("No network."),
    "sk_conflict_title": N_("Hand %(n)d was changed on another device"),
    "sk_conflict_refused": N_("The server refused a change of hand %(n)d: %(message)s"),
    "sk_conflict_help": N_("Both versions are kept until you choose one."),
    "sk_on_this_phone": N_("On this phone"),
    "sk_on_the_server": N_("On the server"),
    "sk_keep_mine": N_("Keep this phone's version"),
    "sk_keep_theirs": N_("Keep the server's version"),
    "sk_needs_network": N_("This change needs the network: try again when it is back."),
    "sk_not_on_phone": N_("This sheet is not on this phone and there is no network: open it once online."),
    "sk_new_needs_network": N_("Starting a sheet needs the network; the sheets on this phone work without it."),
    "sk_on_phone": N_("Sheets on this phone"),
    "sk_help_title": N_("On a phone, and offline"),
    "sk_help_install": N_("Install it: in the browser's menu choose Install app or Add to Home screen (Safari: Share, "
                          "then Add to Home Screen). It then opens from the home screen like an app, also without "
                          "the network."),
    "sk_help_offline": N_("Offline: every bid and trick is checked by the rules and kept on the phone at once. The "
                          "changes wait on the phone and are sent when the network is back. If another device "
                          "changed the same hand meanwhile, both versions are shown and you choose one."),
    "sk_game_is_over": N_("The game is over."),
    "sk_trump_before_bids": N_("The trump can only be entered before the first bid."),
    "sk_all_have_bid": N_("Every player has bid; enter the tricks."),
    "sk_not_their_turn": N_("It is %(name)s's turn to bid."),
    "sk_bid_range": N_("%(name)s may bid 0 to %(size)d."),
    "sk_hook": N_("%(name)s deals and may not bid %(bid)d: the bids must not add up to the number of cards."),
    "sk_bids_first": N_("Enter every bid before the tricks."),
    "sk_choose_trump": N_("%(name)s bid highest: which suit did they choose as trump?"),
    "sk_choose_trump_first": N_("Enter the trump %(name)s chose before the tricks."),
    "sk_no_trump_choice": N_("Nobody chooses trump now."),
    "sk_tricks_range": N_("Each player takes 0 to %(size)d tricks."),
    "sk_tricks_add_up": N_("The tricks add up to %(sum)d; they must add up to %(size)d."),
    "sk_bad_trump": N_("%(text)s is neither a card (7H, 10♠) nor a suit (H, ♥)."),
    "offline_title": N_("You are offline"),
    "offline_text": N_("This page needs the network. The scorekeeper works without it: its sheets are on this phone."),
    "offline_open": N_("Open the scorekeeper"),
    "error": N_("Error"),
    # -- suits
    "suit_S": N_("spades"),
    "suit_H": N_("hearts"),
    "suit_D": N_("diamonds"),
    "suit_C": N_("clubs"),
    "suit_X": N_("the other joker"),
    # -- quick play (the lobby's "Play now")
    "qp_title": N_("Play now"),
    "qp_intro": N_("Play with whoever is online: you are seated with the people waiting for the same game, "
                   "and if nobody comes within %(seconds)d seconds, bots take the empty seats."),
    "qp_family": N_("Rules"),
    "qp_bots": N_("Bots for the empty seats"),
    "qp_play": N_("Play now"),
    "qp_looking": N_("Looking for players…"),
    "qp_countdown": N_("Bots take the empty seats in %(seconds)d\u00a0s"),  # no break before the unit
    "qp_starting": N_("Starting the game…"),
    "qp_cancel": N_("Cancel"),
    # -- friends (static/js/friends.js): the button on every page of a signed-in player, its panel, invitations
    "friends_button": N_("Friends · %(count)d online"),
    "friends_title": N_("Friends"),
    "friends_add_label": N_("A player's user name"),
    "friends_add": N_("Add friend"),
    "friends_none": N_("No friends yet: add one by their user name."),
    "friends_online": N_("online"),
    "friends_offline": N_("offline"),
    "friends_asked": N_("asked: waiting for an answer"),
    "friends_asking": N_("wants to be your friend"),
    "friends_accept": N_("Accept"),
    "friends_decline": N_("Decline"),
    "friends_remove": N_("Remove"),
    "friends_invite": N_("Invite to this table"),
    "friends_invited": N_("Invitation sent to %(name)s."),
    "friends_invite_toast": N_("%(name)s invites you to table %(code)s."),
    "friends_join": N_("Join"),
    "friends_dismiss": N_("Dismiss"),
    "friends_close": N_("Close"),
}
"""The client's texts by key (the keys are the client's; the values are English source texts)."""

CLIENT_CONTEXT_TEXTS: Final[dict[str, tuple[str, str]]] = {
    # The suit in "ten of hearts", as a screen reader says a card (Russian: "десятка червей").
    "suit_of_S": pgettext("ten of ...", "spades"), "suit_of_H": pgettext("ten of ...", "hearts"),
    "suit_of_D": pgettext("ten of ...", "diamonds"), "suit_of_C": pgettext("ten of ...", "clubs"),
    # The sum of the bids against the cards ("Bids 9 of 10 · under by 1"), not a seat's tricks.
    "under_by": pgettext("sum of bids", "under by %(n)d"),
    "over_by_bids": pgettext("sum of bids", "over by %(n)d"),
    # A seat's standing in the hand when the whole line does not fit under its name (a phone,
    # 6 or 7 seats): "need 2" for "needs 2 more", "over 1" for one trick more than the bid.
    "needs_short": pgettext("a seat's standing, short", "need %(n)d"),
    "over_short": pgettext("a seat's standing, short", "over %(n)d"),
    # A seat that took more tricks than it bid ("over by 1"), not the sum of the bids.
    "seat_over_by": pgettext("a seat's tricks", "over by %(n)d"),
}
"""Client texts that need a context: (context, English source text) by key."""

KNOB_LABELS: Final[dict[str, str]] = {
    "deck": N_("Deck (52, 32, 39 or 40 cards, or 54 with two jokers)"),
    "remove_twos_with": N_("Take out the 2s with this many players"),
    "second_pack": N_("Bust: add the small cards of a second pack (5 or 6 players)"),
    "jokers": N_("How jokers play"),
    "schedule": N_("Hand sizes"),
    "max_size": N_("Largest hand"),
    "turning_point": N_("The turning hand is played"),
    "one_card_hand_per_player": N_("One 1-card hand per player"),
    "hand_count": N_("Number of hands (constant hand sizes)"),
    "hands": N_("Explicit hands: [size, trump] each"),
    "trump": N_("How trump is chosen"),
    "trump_rotation": N_("Trump rotation"),
    "fixed_trump": N_("Fixed trump suit"),
    "no_trump_last_hand": N_("No trump in the last hand"),
    "no_trump_largest_hands": N_("No trump in the largest hands"),
    "bidding": N_("Bidding"),
    "hook": N_("Hook: the dealer may not make the bids add up"),
    "bid_changes": N_("A bid may be changed until the next player bids"),
    "no_bid_from": N_("No more bidding from this total"),
    "first_lead": N_("Who leads first"),
    "must_trump": N_("Must trump when unable to follow suit"),
    "scoring": N_("Scoring"),
    "zero_bid": N_("A made zero bid scores"),
    "target_score": N_("Play until this exact total"),
    "stake": N_("Money per point"),
    "devils_bridge": N_("Devil's Bridge: in the last hand see every card but your own"),
    "bowers": N_("Bowers: the jacks of the trump colour are the highest trumps"),
}
"""A label for each rule knob the table form offers (the knobs' names are the record's)."""

CHOICE_LABELS: Final[dict[str, dict[str, str]]] = {
    "schedule": {
        "down-up": N_("down to one card, then up again"), "up": N_("up from one card"),
        "down": N_("down to one card"), "up-down": N_("up from one card, then down again"),
        "constant": N_("the same size every hand"), "explicit": N_("hands listed one by one"),
    },
    "max_size": {
        "classic": N_("classic (10, 10, 10, 8, 7 for 3–7 players)"),
        "river": N_("river (15, 13, 10, 8, 7 for 3–7 players)"), "deck": N_("as large as the deck allows"),
    },
    "turning_point": {"once": N_("once"), "twice": N_("twice")},
    "trump": {
        "turn-up": N_("the next card is turned up"), "turn-up-low-none": N_("turned up; a 2 to 6 means no trump"),
        "rotation": N_("a fixed order from hand to hand"), "fixed": N_("always the same suit"),
        "none": N_("no trump"), "chosen": N_("the highest bidder chooses it after the bidding"),
    },
    "bidding": {"in-turn": N_("in turn, the dealer last"), "simultaneous": N_("all at once, in secret")},
    "first_lead": {"left-of-dealer": N_("the player left of the dealer"), "dealer": N_("the dealer")},
    "scoring": {
        "exact": N_("exact bid: 10 + bid"), "trick-plus-bonus": N_("1 per trick, 10 more for an exact bid"),
        "german-bridge": N_("German Bridge: 10 + bid², miss: −difference²"),
        "7-truf": N_("7-Truf: 10 × bid, miss: 1 per trick"),
        "boerenbridge": N_("Boerenbridge: 1 per trick, 10 more for an exact bid"),
        "triangular-penalty": N_("10 + bid², miss by d: −5 × (1 + … + d)"),
    },
    "zero_bid": {"standard": N_("as the scoring says"), "5": N_("5 points"), "5-plus-size": N_("5 + the hand size")},
    "jokers": {"own-suit": N_("a suit of their own"), "high-low": N_("declared high or low")},
    "fixed_trump": {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")},
}
"""A label for each choice of a choice knob, by knob and value (the values are the record's)."""

CLIENT_PLURALS: Final[dict[str, tuple[str, str]]] = {
    "tricks_n": ngettext("%(count)d trick", "%(count)d tricks"),
    "winners": ngettext("Winner: %(names)s", "Winners: %(names)s"),
    "cards_n": ngettext("%(count)d card", "%(count)d cards"),
    "points_n": ngettext("%(count)d point", "%(count)d points"),
    "hands_n": ngettext("%(count)d hand", "%(count)d hands"),
    "spectators_n": ngettext("%(count)d watching", "%(count)d watching"),
    "unread_n": ngettext("%(count)d new message", "%(count)d new messages"),
    "simulations_n": ngettext("%(count)d simulation per card", "%(count)d simulations per card"),
    "slips_n": ngettext("%(count)d small slip", "%(count)d small slips"),
    "mistakes_n": ngettext("%(count)d mistake", "%(count)d mistakes"),
    "blunders_n": ngettext("%(count)d blunder", "%(count)d blunders"),
    "fair_own_count": ngettext("This browser's randomness is in %(count)d deal of this game.",
                               "This browser's randomness is in %(count)d deals of this game."),
    "sk_waiting": ngettext("%(count)d change is kept on this phone: it is sent when the network is back.",
                           "%(count)d changes are kept on this phone: they are sent when the network is back."),
    "qp_playing_n": ngettext("%(count)d person playing", "%(count)d people playing"),
    "qp_waiting_n": ngettext("%(count)d waiting to play", "%(count)d waiting to play"),
    "qp_here_n": ngettext("%(count)d of %(players)d players here", "%(count)d of %(players)d players here"),
}
"""The client's plural texts by key: (singular, plural) in English."""

_PLURAL_TABLE_SIZE: Final = 200
"""Numbers 0–199 are tabled; a larger number takes the form of 100 + its last two digits
(which holds for the plural rules of every language ohhell speaks)."""


@functools.lru_cache(maxsize=len(LANGUAGES))
def client_catalog(language: str) -> dict[str, Any]:
    """The web client's texts in ``language`` (built once per language)."""
    language = normalize_language(language)
    catalog = translations(language)
    plural_of = getattr(catalog, "plural", None)

    def form(n: int) -> int:
        return int(plural_of(n)) if plural_of is not None else (0 if n == 1 else 1)

    index = [form(n) for n in range(_PLURAL_TABLE_SIZE)]
    forms_count = max(index) + 1
    samples = [index.index(i) for i in range(forms_count)]
    plurals = {key: [catalog.ngettext(singular, plural, n) for n in samples]
               for key, (singular, plural) in CLIENT_PLURALS.items()}
    return {
        "language": language,
        "languages": [{"code": code, "name": LANGUAGE_NAMES[code]} for code in LANGUAGES],
        "texts": {**{key: catalog.gettext(text) for key, text in CLIENT_TEXTS.items()},
                  **{key: catalog.pgettext(context, text) for key, (context, text) in CLIENT_CONTEXT_TEXTS.items()}},
        "knobs": {key: catalog.gettext(text) for key, text in KNOB_LABELS.items()},
        "choices": {knob: {value: catalog.gettext(text) for value, text in labels.items()}
                    for knob, labels in CHOICE_LABELS.items()},
        "plurals": plurals,
        "plural_index": index,
        # Card faces: the rank letters of the language by record letter (T: "10"), the joker's label.
        "ranks": {**dict(zip("23456789TJQKA", rank_letters(language), strict=True)), "X": joker_label(language)},
        # The one-letter chip that marks the dealer's seat.
        "dealer_chip": catalog.pgettext("dealer chip", "D"),
        # The built-in bot levels by name (an operator's own levels keep their names).
        "levels": {level: level_name(level, language) for level in BOT_LEVEL_NAMES},
    }


def pick_language(accept_language: str | None) -> str:
    """The first language of an ``Accept-Language`` header that ohhell speaks, else English.

    >>> pick_language("fr-CH, ru;q=0.9, en;q=0.8")
    'ru'
    >>> pick_language(None)
    'en'
    """
    if not accept_language:
        return "en"
    weighted: list[tuple[float, int, str]] = []
    for position, part in enumerate(accept_language.split(",")):
        pieces = part.strip().split(";")
        tag = pieces[0].strip()
        quality = 1.0
        for piece in pieces[1:]:
            if piece.strip().startswith("q="):
                try:
                    quality = float(piece.strip()[2:])
                except ValueError:
                    quality = 0.0
        if tag:
            weighted.append((-quality, position, tag))
    for _quality, _position, tag in sorted(weighted):
        base = tag.replace("_", "-").split("-")[0].lower()
        if base in LANGUAGES:
            return normalize_language(base)
    return "en"
