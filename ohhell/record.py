"""The ``ohhell/1`` game record: read, write and replay (see ``docs/record-format.md``).

A record says which rules were played, what was dealt, and every bid and card
(or, for a hand played with real cards, only the bids and tricks). Like a PGN
file it keeps only what happened; a position is rebuilt by replaying it.

>>> import random
>>> from ohhell.game import Game
>>> from ohhell.rules import preset
>>> state = play_random_game(preset("classic", players=3), seed=1)
>>> record = record_from_state(state)
>>> replay(record)["complete"], record_from_state(state_from_record(record)) == record
(True, True)
>>> replay({"format": "ohhell/1", "rules": {"preset": "classic", "players": 4}, "first_dealer": 9, "hands": []})
Traceback (most recent call last):
...
ohhell.errors.RecordError: the first dealer must be a seat from 0 to 3, not 9

Joker notation (presets ``jokers`` and ``ne-blackout``): ``X1`` is the red
joker and ``X2`` the black joker. Under high-low jokers the first joker played
in a hand carries its declaration in ``plays``: ``X1+`` (high: it wins the
trick) or ``X1-`` (low: it loses).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final

from ohhell.actions import (
    Action,
    Bid,
    ChooseTrump,
    Deal,
    Declare,
    Draw,
    Play,
    ReportTricks,
    Scoresheet,
    action_from_json,
    make_bid,
    make_play,
)
from ohhell.cards import (
    RED_JOKER,
    SUIT_NAMES,
    Card,
    CardNumbering,
    card_name,
    is_joker,
    message_card,
    parse_card,
    parse_suit,
    suit_letter,
)
from ohhell.errors import IllegalActionError, InvalidCardError, OhHellError, RecordError, RulesError
from ohhell.game import Game, HandResult, Phase, State
from ohhell.i18n import _
from ohhell.rules import Rules
from ohhell.scoring import payments, settlement

FORMAT: Final = "ohhell/1"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ------------------------------------------------------------------------- reading


def state_from_record(data: Any) -> State:
    """Replay a record into a :class:`~ohhell.game.State`; raise :class:`RecordError` if it
    breaks the format or a rule."""
    return _Replayer(data).run()


def replay_hands(data: Any) -> Iterator[tuple[int, State]]:
    """Replay a record hand by hand: yield ``(h, state)`` just before hand ``h`` is dealt, then
    replay that hand when asked for the next one.

    For ``h = 0`` the state is the game's very start: before the cut for the first deal when
    the record has one (phase ``CUT_FOR_DEAL``), else before the first shuffle. The state is the
    replay's own: look at it (or at a :meth:`~ohhell.game.State.clone`), do not change it. A
    :class:`RecordError` is raised where :func:`state_from_record` would raise it, so the hands
    before a broken one are seen first (``ohhell verify`` checks their deals).
    """
    return _Replayer(data).walk()


def replay(data: Any) -> dict[str, Any]:
    """The result object of ``ohhell replay --json`` for a record (raises :class:`RecordError`)."""
    state = state_from_record(data)
    return replay_result(state, started=len(data["hands"]))


def replay_result(state: State, started: int | None = None) -> dict[str, Any]:
    """The ``replay`` result of a state: every hand started, totals and winners.

    ``started`` is the number of hands the record lists (a hand that has been
    dealt counts; by default, the hand in progress counts once it is dealt).
    """
    hands = [_finished_json(result) for result in state.finished_hands]
    if started is None:
        started = len(hands) + (1 if state.phase not in (Phase.SHUFFLE, Phase.CUT, Phase.CUT_FOR_DEAL,
                                                         Phase.GAME_OVER) else 0)
    if started > len(hands) and not state.is_terminal():
        hands.append({
            "dealer": state.dealer, "size": state.hand_size, "trump": _trump_letter(state.trump),
            "bids": list(state.bids), "tricks": list(state.tricks_won), "scores": None,
        })
    result: dict[str, Any] = {"complete": state.is_terminal(), "hands": hands, "totals": list(state.totals),
                              "winners": state.winners()}
    stake = state.rules.stake
    if stake is not None and state.is_terminal():
        # Money (docs/record-format.md): each seat's gain or loss, and who pays whom.
        result["money"] = {
            "stake": stake, "settlement": settlement(state.totals, stake),
            "payments": [{"from": payer, "to": payee, "amount": amount}
                         for payer, payee, amount in payments(state.totals, stake)],
        }
    return result


def _trump_letter(suit: int | None) -> str | None:
    return suit_letter(suit) if suit is not None else None


def _finished_json(result: HandResult) -> dict[str, Any]:
    return {"dealer": result.dealer, "size": result.size, "trump": _trump_letter(result.trump),
            "bids": list(result.bids), "tricks": list(result.tricks), "scores": list(result.scores)}


class _Replayer:
    """Replays a record hand by hand, turning every problem into a :class:`RecordError`."""

    state: State
    """The game as replayed so far."""

    def __init__(self, data: Any, explain: bool = True) -> None:
        self.data = data
        self.explain = explain
        """Whether a refused play may be explained as a wrong trump (off for the trial replays)."""

    def fail(self, kind: str, message: str, hand: int | None = None, index: int | None = None) -> RecordError:
        return RecordError(kind, message, hand, index)

    def run(self) -> State:
        for _hand, _state in self.walk():
            pass
        return self.state

    def walk(self) -> Iterator[tuple[int, State]]:
        data = self.data
        if not isinstance(data, Mapping):
            raise self.fail("bad-format", _("a record must be a JSON object"))
        if data.get("format") != FORMAT:
            raise self.fail("bad-format", _("the format must be %(expected)r, not %(found)r")
                            % {"expected": FORMAT, "found": data.get("format")})
        if "rules" not in data:
            raise self.fail("bad-format", _("the record has no rules"))
        try:
            rules = Rules.from_json(data["rules"])
        except RulesError as error:
            raise self.fail("bad-format", _("bad rules: %(error)s") % {"error": error}) from error
        except TypeError as error:
            raise self.fail("bad-format", _("bad rules: %(error)s") % {"error": error}) from error
        n = rules.players
        names = data.get("names")
        if names is not None and (not isinstance(names, list) or len(names) != n
                                  or not all(isinstance(name, str) for name in names)):
            raise self.fail("bad-format", _("names must be a list of %(n)d texts, one per seat") % {"n": n})
        hands = data.get("hands")
        if not isinstance(hands, list):
            raise self.fail("bad-format", _("the record must have a list of hands"))
        if "first_dealer" not in data or not _is_int(data["first_dealer"]):
            raise self.fail("bad-format", _("the record must give the first dealer's seat as a number"))
        first_dealer = data["first_dealer"]
        if not 0 <= first_dealer < n:
            raise self.fail("bad-dealer", _("the first dealer must be a seat from 0 to %(last)d, not %(seat)d")
                            % {"last": n - 1, "seat": first_dealer})
        cut = data.get("cut")
        state = self.state = Game(rules).new_initial_state(first_dealer if cut is None else None)
        if hands:
            yield 0, state
        if cut is not None:
            self._cut(state, cut, first_dealer)
        for index, hand in enumerate(hands):
            if index:
                yield index, state
            try:
                self._hand(state, index, hand)
            except RecordError as error:
                better = self._wrong_trump(error, index, hand) if self.explain else None
                if better is None:
                    raise
                raise better from error

    def _wrong_trump(self, error: RecordError, h: int, hand: Any) -> RecordError | None:
        """A play refused because the tricks went to other seats than the record's may come from
        a wrong turned card: it makes another suit trump, the tricks are won by others, and a later
        card seems played by a seat that does not hold it. If the plays come out right with a card
        of another suit turned up, the error is the trump's (``bad-trump``), not the play's."""
        if error.kind != "illegal-play" or error.hand != h or not isinstance(hand, Mapping):
            return None
        given = hand.get("trump")
        deal = hand.get("deal")
        if not isinstance(given, str) or not isinstance(deal, list):
            return None
        try:
            turned = parse_card(given)
            dealt = {parse_card(text) for cards in deal for text in cards}
        except (InvalidCardError, TypeError):
            return None
        if turned >= RED_JOKER:
            return None
        rules = Rules.from_json(self.data["rules"])
        for suit in range(4):
            if suit == turned // 13:
                continue
            spare = next((card for card in range(suit * 13, suit * 13 + 13)
                          if rules.deck_mask >> card & 1 and card not in dealt), None)
            if spare is None:
                continue
            hands = list(self.data["hands"])
            hands[h] = {**hand, "trump": card_name(spare)}
            try:
                _Replayer({**self.data, "hands": hands[:h + 1]}, explain=False).run()
            except RecordError as other:
                if other.hand == h:
                    continue
            return self.fail("bad-trump", _("the tricks of this hand do not come out as played with %(trump)s as "
                                            "trump (the turned card %(card)s): %(problem)s; with %(other)s as "
                                            "trump they do. Is the turned card right?")
                             % {"trump": _(SUIT_NAMES[turned // 13]), "card": message_card(turned),
                                "problem": error.message, "other": _(SUIT_NAMES[suit])}, h)
        return None

    def _cut(self, state: State, cut: Any, first_dealer: int) -> None:
        if not isinstance(cut, list):
            raise self.fail("bad-format", _("the cut must be a list of [seat, card] draws"))
        try:
            for draw in cut:
                if not (isinstance(draw, list) and len(draw) == 2 and _is_int(draw[0])):
                    raise self.fail("bad-format", _("the cut must be a list of [seat, card] draws"))
                state.apply(Draw(draw[0], parse_card(draw[1])))
        except (IllegalActionError, InvalidCardError) as error:
            raise self.fail("bad-dealer", _("the cut for the first deal is wrong: %(error)s")
                            % {"error": error}) from error
        if state.first_dealer != first_dealer:
            raise self.fail("bad-dealer", _("the cut makes seat %(cut)s the first dealer, not seat %(seat)d")
                            % {"cut": state.first_dealer, "seat": first_dealer})

    def _hand(self, state: State, h: int, hand: Any) -> None:
        if not isinstance(hand, Mapping):
            raise self.fail("bad-format", _("each hand must be an object"), h)
        if state.is_terminal():
            raise self.fail("bad-format", _("the game was over before hand %(hand)d") % {"hand": h + 1}, h)
        if state.phase != Phase.SHUFFLE:
            raise self.fail("bad-format", _("hand %(previous)d is not finished, yet hand %(hand)d follows it")
                            % {"previous": h, "hand": h + 1}, h)
        if "dealer" in hand and hand["dealer"] != state.dealer:
            raise self.fail("bad-dealer", _("the dealer of hand %(hand)d is seat %(seat)d, not %(given)r")
                            % {"hand": h + 1, "seat": state.dealer, "given": hand["dealer"]}, h)
        if "size" in hand and (not _is_int(hand["size"]) or hand["size"] != state.hand_size):
            raise self.fail("bad-size", _("hand %(hand)d has %(size)d cards each, not %(given)r")
                            % {"hand": h + 1, "size": state.hand_size, "given": hand["size"]}, h)
        if "deal" in hand:
            self._deal(state, h, hand)
        else:
            if hand.get("plays"):
                raise self.fail("bad-format", _("a hand with plays must give its deal"), h)
            self._scoresheet(state, h, hand)
        bids = hand.get("bids", [])
        if not isinstance(bids, list):
            raise self.fail("bad-format", _("bids must be a list"), h)
        self._bids(state, h, bids)
        self._chosen_trump(state, h, hand)
        if "deal" in hand:
            plays = hand.get("plays", [])
            if not isinstance(plays, list):
                raise self.fail("bad-format", _("plays must be a list"), h)
            self._plays(state, h, plays)
        elif "tricks" in hand and hand["tricks"] is not None:
            tricks = hand["tricks"]
            if not state.bidding_complete:
                raise self.fail("bad-tricks", _("tricks are given before every player has bid"), h)
            if not isinstance(tricks, list):
                raise self.fail("bad-tricks", _("tricks must be a list, one number per seat"), h)
            try:
                state.apply(ReportTricks(tuple(tricks)))
            except IllegalActionError as error:
                raise self.fail("bad-tricks", str(error), h) from error

    def _chosen_trump(self, state: State, h: int, hand: Mapping[str, Any]) -> None:
        """The trump suit the highest bidder chose after the bidding (``trump: chosen``)."""
        chosen = hand.get("chosen_trump")
        if state.phase != Phase.CHOOSING_TRUMP:
            if chosen is None:
                return
            if state.plan is None or state.plan.trump != "chosen":
                raise self.fail("bad-trump", _("nobody chooses trump in this hand, yet it gives chosen_trump"), h)
            raise self.fail("bad-trump", _("trump is chosen once every player has bid, yet chosen_trump is given "
                                           "before that"), h)
        if chosen is None:
            if hand.get("plays") or hand.get("tricks") is not None:
                raise self.fail("bad-trump", _("the highest bidder, seat %(seat)d, chose trump after the bidding: "
                                               "give the suit as chosen_trump") % {"seat": state.trump_chooser}, h)
            return  # the hand stopped while trump was being chosen
        if not isinstance(chosen, str):
            raise self.fail("bad-trump", _("chosen_trump must be a suit letter (S, H, D or C), not %(value)r")
                            % {"value": chosen}, h)
        try:
            suit = parse_suit(chosen)
        except InvalidCardError as error:
            raise self.fail("bad-trump", str(error), h) from error
        seat = state.trump_chooser
        assert seat is not None
        try:
            state.apply(ChooseTrump(seat, suit))
        except IllegalActionError as error:
            raise self.fail("bad-trump", str(error), h) from error

    def _card(self, text: Any, h: int, index: int | None = None) -> Card:
        try:
            return parse_card(text)
        except InvalidCardError as error:
            raise self.fail("bad-card", str(error), h, index) from error

    def _deal(self, state: State, h: int, hand: Mapping[str, Any]) -> None:
        deal = hand["deal"]
        if not isinstance(deal, list) or not all(isinstance(cards, list) for cards in deal):
            raise self.fail("bad-deal", _("the deal must be a list of card lists, one per seat"), h)
        # A name given twice is the card and its second copy (Bust); a third time, or a card
        # without a copy in this pack, is a card dealt twice.
        numbering = CardNumbering(state.game.deck_mask)

        def number(text: Any) -> Card:
            card = self._card(text, h)
            try:
                return numbering.number(card)
            except InvalidCardError as error:
                raise self.fail("bad-deal", _("%(card)s was dealt twice") % {"card": message_card(card)}, h) from error

        cards = tuple(tuple(number(text) for text in seat_cards) for seat_cards in deal)
        trump = hand.get("trump")
        turn_up = None
        if trump is not None:
            try:
                turn_up = numbering.number(self._card(trump, h))
            except InvalidCardError as error:
                raise self.fail("bad-trump", _("the turned-up card %(card)s was also dealt")
                                % {"card": message_card(parse_card(trump))}, h) from error
        try:
            state.apply(Deal(cards, turn_up))
        except IllegalActionError as error:
            kind = error.rule if error.rule in ("bad-deal", "bad-trump", "bad-card") else "bad-deal"
            raise self.fail(kind, str(error), h) from error

    def _scoresheet(self, state: State, h: int, hand: Mapping[str, Any]) -> None:
        trump = hand.get("trump")
        action = Scoresheet()
        if trump is not None:
            if not isinstance(trump, str):
                raise self.fail("bad-trump", _("trump must be a card, a suit letter or null"), h)
            if len(trump.strip()) == 1:
                try:
                    action = Scoresheet(trump=parse_suit(trump))
                except InvalidCardError as error:
                    raise self.fail("bad-trump", str(error), h) from error
            else:
                action = Scoresheet(turn_up=self._card(trump, h))
        try:
            state.apply(action)
        except IllegalActionError as error:
            kind = "bad-card" if error.rule == "bad-card" else "bad-trump"
            raise self.fail(kind, str(error), h) from error

    def _bids(self, state: State, h: int, bids: list[Any]) -> None:
        n = state.num_players
        simultaneous = state.rules.bidding == "simultaneous"
        seats = list(range(n)) if simultaneous else [(state.dealer + 1 + i) % n for i in range(n)]
        if len(bids) > n:
            raise self.fail("illegal-bid", _("there are %(n)d players, but %(count)d bids")
                            % {"n": n, "count": len(bids)}, h, n)
        for index, bid in enumerate(bids):
            seat = seats[index]
            bidder = seat in state.bid_order
            if bid is None:
                if bidder and not simultaneous:
                    raise self.fail("illegal-bid", _("seat %(seat)d must bid") % {"seat": seat}, h, index)
                continue
            if not _is_int(bid):
                raise self.fail("bad-format", _("a bid must be a whole number, not %(bid)r") % {"bid": bid},
                                h, index)
            if not bidder:
                raise self.fail("illegal-bid", _("seat %(seat)d does not bid this hand (total %(total)d)")
                                % {"seat": seat, "total": state.totals[seat]}, h, index)
            try:
                state.apply(make_bid(seat, bid))
            except IllegalActionError as error:
                raise self.fail("illegal-bid", str(error), h, index) from error

    def _plays(self, state: State, h: int, plays: list[Any]) -> None:
        for index, text in enumerate(plays):
            if state.phase not in (Phase.PLAYING,):
                if state.phase in (Phase.BIDDING, Phase.CHOOSING_TRUMP):
                    raise self.fail("illegal-play", _("a card was played before every player had bid"), h, index)
                raise self.fail("illegal-play", _("hand %(hand)d is over: it has no play %(index)d")
                                % {"hand": h + 1, "index": index + 1}, h, index)
            declaration: bool | None = None
            if isinstance(text, str) and text.strip()[-1:] in ("+", "-") and len(text.strip()) > 1:
                declaration = text.strip()[-1] == "+"
                text = text.strip()[:-1]
            card = self._card(text, h, index)
            if not state.rules.deck_mask >> card & 1:
                raise self.fail("bad-card", _("%(card)s is not a card of this deck") % {"card": card_name(card)},
                                h, index)
            if declaration is not None and card < RED_JOKER:
                raise self.fail("bad-card", _("only a joker is declared high (+) or low (-), not %(card)s")
                                % {"card": card_name(card)}, h, index)
            seat = state.turn
            assert seat is not None
            # The second joker is the opposite of the first, read before the play: when it is the
            # hand's last card, the hand is over (and its declaration gone) once it is played.
            automatic = not state.joker_high if state.joker_high is not None else None
            try:
                state.apply(make_play(seat, card))
            except IllegalActionError as error:
                raise self.fail("illegal-play", str(error), h, index) from error
            if state.phase is Phase.DECLARING:  # type: ignore[comparison-overlap]
                if declaration is None:
                    state.undo()
                    raise self.fail("illegal-play", _("the first joker of a hand must be declared high (%(card)s+) "
                                                      "or low (%(card)s-)") % {"card": card_name(card)}, h, index)
                state.apply(Declare(seat, declaration))
            elif declaration is not None and (automatic is None or declaration != automatic):
                state.undo()
                if not state.game.high_low_jokers:
                    raise self.fail("illegal-play", _("jokers are not declared high or low under these rules"),
                                    h, index)
                raise self.fail("illegal-play", _("this joker is not declared: it is automatically the "
                                                  "opposite of the first"), h, index)


# ------------------------------------------------------------------------- action logs


def replay_log(rules: Rules, log: Iterable[Action | Mapping[str, Any]], first_dealer: int | None = None) -> State:
    """The state an action log leads to: the game's start (players cut for the deal unless
    ``first_dealer`` is given), then every action of ``log`` in order. The engine's own
    history is such a log (a record keeps less: :func:`state_from_record` reads that).

    >>> from ohhell.rules import preset
    >>> state = play_random_game(preset("classic", players=3), seed=2)
    >>> replay_log(state.rules, state.history) == state
    True
    """
    return apply_log(Game(rules).new_initial_state(first_dealer), log)


def apply_log(state: State, log: Iterable[Action | Mapping[str, Any]]) -> State:
    """Apply the actions of ``log`` to ``state`` in order and return it; an action is an
    :class:`~ohhell.actions.Action` or its JSON (:func:`~ohhell.actions.action_to_json`, as the
    server stores its action logs). An action the rules refuse raises the engine's error.

    >>> from ohhell.actions import action_to_json
    >>> from ohhell.rules import preset
    >>> state = play_random_game(preset("classic", players=3), seed=2)
    >>> stored = [action_to_json(action) for action in state.history]
    >>> apply_log(Game(state.rules).new_initial_state(), stored) == state
    True
    """
    for item in log:
        state.apply(action_from_json(item) if isinstance(item, Mapping) else item)
    return state


def public_record(state: State, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The ``ohhell/1`` record of what everyone may see of a game: all of it once it is over,
    else its finished hands only (the hand in progress holds cards nobody may see yet).
    Raises :class:`~ohhell.errors.OhHellError` while the players still cut for the first deal.

    >>> from ohhell.rules import preset
    >>> state = play_random_game(preset("classic", players=3), seed=2)
    >>> public_record(state) == record_from_state(state)
    True
    >>> running = replay_log(state.rules, state.history[:60])
    >>> len(public_record(running)["hands"]) == len(running.finished_hands)
    True
    """
    if state.first_dealer is None:
        raise OhHellError(_("the game has not started yet"))
    record = record_from_state(state, names)
    del record["hands"][len(state.finished_hands):]  # a record of finished hands is a record too
    return record


# ------------------------------------------------------------------------- writing


def record_from_state(state: State, names: Sequence[str] | None = None, derived: bool = False) -> dict[str, Any]:
    """The ``ohhell/1`` record of a game so far (``derived`` adds tricks, scores, totals
    and winners, which readers ignore or check)."""
    record: dict[str, Any] = {"format": FORMAT, "rules": state.rules.to_json()}
    if names:
        record["names"] = list(names)
    if state.first_dealer is None:
        raise RecordError("bad-format", _("the first dealer has not been chosen yet"))
    record["first_dealer"] = state.first_dealer
    if state.draws:
        record["cut"] = [[seat, card_name(card)] for seat, card in state.draws]
    hands = [_hand_json(result, state, derived) for result in state.finished_hands]
    if state.phase in (Phase.BIDDING, Phase.CHOOSING_TRUMP, Phase.PLAYING, Phase.DECLARING, Phase.TRICKS):
        hands.append(_current_hand_json(state))
    record["hands"] = hands
    if derived:
        record["totals"] = list(state.totals)
        record["winners"] = state.winners()
    return record


def _bids_json(bids: Sequence[int | None], bid_order_start: int, n: int, simultaneous: bool,
               complete: bool, bidders: Sequence[int] = ()) -> list[int | None]:
    if simultaneous:
        out = list(bids)
        while out and out[-1] is None and not complete:
            out.pop()
        return out
    ordered = [bids[(bid_order_start + i) % n] for i in range(n)]
    if not complete:
        # In-turn bids stop at the first seat still to bid.
        cut = len(ordered)
        for i, bid in enumerate(ordered):
            if bid is None and (bid_order_start + i) % n in bidders:
                cut = i
                break
        ordered = ordered[:cut]
    return ordered


def _plays_json(plays: Sequence[Card], joker_high: bool | None) -> list[str]:
    out = []
    declared = False
    for card in plays:
        name = card_name(card)
        if is_joker(card) and joker_high is not None and not declared:
            name += "+" if joker_high else "-"
            declared = True
        out.append(name)
    return out


def _trump_json(turn_up: Card | None, trump: int | None, scoresheet: bool) -> str | None:
    if turn_up is not None:
        return card_name(turn_up)
    if scoresheet and trump is not None:
        return suit_letter(trump)
    return None


def _hand_json(result: HandResult, state: State, derived: bool) -> dict[str, Any]:
    n = state.num_players
    simultaneous = state.rules.bidding == "simultaneous"
    out: dict[str, Any] = {"dealer": result.dealer, "size": result.size}
    if result.deal is not None:
        out["deal"] = [[card_name(card) for card in cards] for cards in result.deal]
    scoresheet = result.plays is None
    out["trump"] = _trump_json(result.turn_up, result.trump, scoresheet and _plan_turns_up(state, result.index))
    out["bids"] = _bids_json(result.bids, result.dealer + 1, n, simultaneous, True)
    if result.trump_chooser is not None and result.trump is not None:
        out["chosen_trump"] = suit_letter(result.trump)
    if scoresheet:
        out["tricks"] = list(result.tricks)
    else:
        out["plays"] = _plays_json(result.plays or (), result.joker_high)
        if derived:
            out["tricks"] = list(result.tricks)
    if derived:
        out["scores"] = list(result.scores)
    return out


def _plan_turns_up(state: State, index: int) -> bool:
    plan = state.rules.hand_plan(index)
    return plan is not None and plan.trump.startswith("turn-up")


def _current_hand_json(state: State) -> dict[str, Any]:
    n = state.num_players
    simultaneous = state.rules.bidding == "simultaneous"
    out: dict[str, Any] = {"dealer": state.dealer, "size": state.hand_size}
    if state.deal is not None:
        out["deal"] = [[card_name(card) for card in cards] for cards in state.deal]
    out["trump"] = _trump_json(state.turn_up, state.trump, state.scoresheet and _plan_turns_up(state, state.hand_index))
    out["bids"] = _bids_json(state.bids, state.dealer + 1, n, simultaneous, state.bidding_complete,
                             state.bid_order)
    if state.trump_chooser is not None and state.trump is not None:
        out["chosen_trump"] = suit_letter(state.trump)
    if not state.scoresheet:
        out["plays"] = _plays_json(state.plays, state.joker_high)
    return out


# ------------------------------------------------------------------------- helpers


def load_record(text: str) -> Any:
    """Parse the JSON text of a record (a :class:`RecordError` ``bad-format`` if it is not JSON)."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as error:
        raise RecordError("bad-format", _("the record is not valid JSON: %(error)s") % {"error": error}) from error


def read_record_file(path: str) -> Any:
    """Read and parse a record file (``-``: standard input), UTF-8 with or without a byte-order
    mark: a :class:`RecordError` ``bad-format`` if it is not UTF-8 or not JSON; an
    :class:`OSError` if it cannot be read."""
    if path == "-":
        raw = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as handle:
            raw = handle.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RecordError("bad-format", _("the record is not UTF-8 text: %(error)s") % {"error": error}) from error
    return load_record(text)


def dump_record(record: Mapping[str, Any]) -> str:
    """The JSON text of a record: one hand per line block, cards as short strings."""
    return json.dumps(record, ensure_ascii=False, indent=1)


def play_random_game(rules: Rules, seed: int | None = None, bid_changes: bool = False) -> State:
    """A whole game with uniformly random legal actions (deterministic from ``seed``).

    With ``bid_changes`` false (the default) players never change a bid.
    """
    rng = random.Random(seed)
    state = Game(rules).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        if state.turn is None:  # simultaneous bidding: every seat bids in turn of seat number
            seat = state.actors()[0]
            legal = state.legal_actions(seat)
        else:
            legal = state.legal_actions(None if bid_changes else state.turn)
        state.apply(legal[rng.randrange(len(legal))])
    return state


__all__ = [
    "FORMAT",
    "Bid",
    "Play",
    "apply_log",
    "dump_record",
    "load_record",
    "play_random_game",
    "public_record",
    "read_record_file",
    "record_from_state",
    "replay",
    "replay_hands",
    "replay_log",
    "replay_result",
    "state_from_record",
]
