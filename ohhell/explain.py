"""The rules in plain words, for ``ohhell rules NAME`` and the front ends.

Every sentence goes through the translation catalogs (:mod:`ohhell.i18n`).

>>> from ohhell.rules import preset
>>> for topic, text in describe_rules(preset("classic", players=4))[:2]:
...     print(f"{topic}: {text}")
Players and cards: 4 players, a pack of 52 cards (A K Q J 10 9 8 7 6 5 4 3 2 in each suit).
Hands: 19 hands of 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 cards. The deal passes ...
"""

from __future__ import annotations

from ohhell.cards import SUIT_NAMES, parse_suit
from ohhell.i18n import _, ngettext
from ohhell.rules import PRESETS, Rules


def _suit_name(letter: str) -> str:
    return _(SUIT_NAMES[parse_suit(letter)])


def _deck(rules: Rules) -> str:
    size = rules.deck_size
    if rules.deck == "32":
        ranks = _("A K Q J 10 9 8 7 in each suit")
    elif rules.deck == "39":
        ranks = _("A K Q J 10 9 8 7 6 5 in each suit, without the 5 of spades")
    elif rules.deck == "40":
        ranks = _("the Spanish pack: A K Q J 7 6 5 4 3 2 in each suit, the king as rey, the queen as caballo, "
                  "the jack as sota")
    elif rules.players in rules.remove_twos_with:
        ranks = _("A K Q J 10 9 8 7 6 5 4 3 in each suit, the 2s taken out")
    else:
        ranks = _("A K Q J 10 9 8 7 6 5 4 3 2 in each suit")
    text = ngettext("%(n)d player, a pack of %(size)d cards (%(ranks)s)",
                    "%(n)d players, a pack of %(size)d cards (%(ranks)s)", rules.players) % {
        "n": rules.players, "size": size, "ranks": ranks}
    copies = rules.deck_size - 52 if rules.second_pack and rules.deck == "52" else 0
    if copies:
        text += ". " + _("Bust's second pack: the %(count)d smallest cards of a second pack are added (%(cards)s), "
                         "so that everyone has 13 cards in the first hand") % {
            "count": copies, "cards": _("the 2s, 3s and 4s and the 5 of spades") if copies == 13
            else _("the 2s to 7s and the 8s of spades and hearts")}
    if rules.has_jokers:
        # The size above counts the jokers: say so, or 50 reads as 50 cards and two jokers more.
        text += ". " + _("The pack includes two jokers, the red X1 and the black X2 (%(size)d cards in all, "
                         "jokers included)") % {"size": size}
    return text + "."


def _jokers(rules: Rules) -> str | None:
    if not rules.has_jokers:
        return None
    if rules.jokers == "high-low":
        return _("Jokers may not be led unless you hold nothing else, and may not be played to the first trick; "
                 "otherwise you may play one to any trick, even when you could follow suit. Whoever plays the "
                 "first joker of a hand declares it high (it wins the trick) or low (it loses); the second joker "
                 "is the opposite. When a joker is led, the first card of the same colour sets the suit.")
    return _("The jokers are a suit of their own with two equal cards. A led joker wins the trick unless it is "
             "trumped; if both are played to one trick, the first wins. If a joker is turned up, the other "
             "joker is the only trump.")


def _schedule(rules: Rules) -> str:
    sizes = [plan.size for plan in rules.hand_plans()]
    if rules.is_open_ended:
        text = ngettext("Every hand has %(size)d card each, until the game ends.",
                        "Every hand has %(size)d cards each, until the game ends.", sizes[0]) % {"size": sizes[0]}
    else:
        listed = ", ".join(str(size) for size in sizes)
        text = ngettext("%(count)d hand of %(sizes)s cards.", "%(count)d hands of %(sizes)s cards.",
                        len(sizes)) % {"count": len(sizes), "sizes": listed}
    return text + " " + _("The deal passes to the left after each hand.")


def _trump(rules: Rules) -> str:
    parts = []
    if rules.schedule == "explicit":
        parts.append(_("Each hand has its own trump rule: the hands with a turned card take its suit, "
                       "the others are played without trump."))
    elif rules.trump == "turn-up":
        parts.append(_("After the deal the next card is turned up: its suit is trump. When no card is left, "
                       "the hand has no trump."))
    elif rules.trump == "turn-up-low-none":
        parts.append(_("After the deal the next card is turned up: a 2 to 6 means no trump, a 7 or higher makes "
                       "its suit trump."))
    elif rules.trump == "rotation":
        steps = [_("no trump") if step == "NT" else _suit_name(step) for step in rules.trump_rotation]
        parts.append(_("Trump follows a fixed order from hand to hand: %(order)s. No card is turned up.")
                     % {"order": ", ".join(steps)})
    elif rules.trump == "fixed":
        parts.append(_("%(suit)s are always trump. No card is turned up.")
                     % {"suit": _suit_name(rules.fixed_trump).capitalize()})
    elif rules.trump == "chosen":
        parts.append(_("No card is turned up: everyone bids without knowing trump. When the bidding is over, the "
                       "highest bidder chooses the trump suit (of equal highest bids, the one who bid first)."))
    else:
        parts.append(_("There is no trump."))
    if rules.no_trump_last_hand:
        parts.append(_("The last hand is played without trump (no card is turned)."))
    if rules.no_trump_largest_hands:
        parts.append(_("The largest hands are played without trump."))
    return " ".join(parts)


def _bidding(rules: Rules) -> str:
    if rules.bidding == "simultaneous":
        text = _("Everyone bids at the same time, in secret; the bids are shown when all are in. "
                 "A bid is the exact number of tricks you will take, from zero to the hand size.")
    else:
        text = _("Starting left of the dealer, each player bids the exact number of tricks they will take, "
                 "from zero to the hand size; the dealer bids last. Bids are public.")
        if rules.hook:
            text += " " + _("The hook: the dealer may not bid the number that makes the bids add up to the "
                            "number of tricks.")
        if rules.bid_changes and rules.trump == "chosen":
            text += " " + _("You may change your bid until the next player has bid; once trump is chosen, no bid "
                            "changes.")
        elif rules.bid_changes:
            text += " " + _("You may change your bid until the next player has bid (the dealer: until the "
                            "first card is led).")
    if rules.no_bid_from is not None:
        text += " " + _("A player with %(points)d points or more does not bid and scores 1 per trick.") % {
            "points": rules.no_bid_from}
    return text


def _play(rules: Rules) -> str:
    if rules.first_lead == "dealer":
        text = _("The dealer leads to the first trick.")
    else:
        text = _("The player left of the dealer leads to the first trick.")
    text += " " + _("You must follow suit if you can.")
    if rules.must_trump:
        text += " " + _("If you cannot, you must play a trump if you have one.")
    else:
        text += " " + _("If you cannot, you may play any card; you need not trump.")
    text += " " + _("The highest trump wins the trick, else the highest card of the suit led; the winner "
                    "leads next.")
    if rules.second_pack and rules.deck_size > 52:
        text += " " + _("When two identical cards are played to one trick, the second played beats the first.")
    if rules.bowers:
        text += " " + _("Bowers: the jack of trumps is the highest trump and the other jack of the same colour "
                        "the second; that jack belongs to the trump suit, not to its own.")
    if rules.devils_bridge:
        text += " " + _("In the last 1-card hand everyone holds their card to their forehead: you see every "
                        "card but your own.")
    return text


def _scoring(rules: Rules) -> str:
    scoring = {
        "exact": _("Take exactly your bid and score 10 + your bid (10 for a made zero); miss and score 0."),
        "trick-plus-bonus": _("Score 1 per trick, and 10 more if you took exactly your bid."),
        "german-bridge": _("Take exactly your bid and score 10 + bid²; miss and lose the square of the "
                           "difference."),
        "7-truf": _("Take exactly your bid and score 10 × bid (a made zero scores 5 × the tricks in the hand); "
                    "miss and score 1 per trick."),
        "boerenbridge": _("Score 1 per trick and 10 more for an exact bid; a made zero scores 20."),
        "triangular-penalty": _("Take exactly your bid and score 10 + bid²; miss by d and lose 5 × (1 + 2 + … + "
                                "d)."),
    }[rules.scoring]
    if rules.zero_bid == "5":
        scoring += " " + _("A made zero scores 5.")
    elif rules.zero_bid == "5-plus-size":
        scoring += " " + _("A made zero scores 5 + the number of cards dealt to each player.")
    return scoring


def _end(rules: Rules) -> str:
    if rules.target_score is not None:
        text = _("The game ends when a player reaches exactly %(target)d; a total past %(target)d bounces back "
                 "by the excess. Players at %(target)d share the win.") % {"target": rules.target_score}
    else:
        text = _("After the last hand the highest total wins; players tied for it share the victory.")
    if rules.stake is not None:
        text += " " + _("For money: each player receives or pays the difference between their total and the "
                        "average, at %(stake)s per point.") % {"stake": rules.stake}
    return text


def describe_rules(rules: Rules) -> list[tuple[str, str]]:
    """The rules as ``(topic, sentence)`` pairs in the current language."""
    out = [
        (_("Players and cards"), _deck(rules)),
        (_("Hands"), _schedule(rules)),
        (_("Trump"), _trump(rules)),
        (_("Bidding"), _bidding(rules)),
        (_("Play"), _play(rules)),
    ]
    jokers = _jokers(rules)
    if jokers:
        out.append((_("Jokers"), jokers))
    out += [(_("Scoring"), _scoring(rules)), (_("End of the game"), _end(rules))]
    return out


def preset_summary(name: str) -> str:
    """The one-line summary of a preset, translated."""
    return _(PRESETS[name].summary)
