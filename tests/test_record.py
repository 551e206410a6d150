"""The ohhell/1 record: round trips, the replay result, and every error kind with its hand and index."""

import copy
import json
from importlib import resources

import jsonschema
import pytest

from ohhell import Game, RecordError, ReportTricks, Scoresheet, preset
from ohhell.actions import make_bid
from ohhell.cards import parse_card, suit_letter
from ohhell.record import play_random_game, record_from_state, replay, state_from_record

SCHEMA = json.loads(resources.files("ohhell").joinpath("schema/record-1.json").read_text())


def legal_record(players=4, seed=1, name="classic", **knobs):
    return record_from_state(play_random_game(preset(name, players=players, **knobs), seed=seed))


def error_of(record):
    with pytest.raises(RecordError) as error:
        replay(record)
    return error.value.kind, error.value.hand, error.value.index


def test_game_record_replay_round_trips_exactly():
    for players in (3, 4, 5, 6, 7):
        state = play_random_game(preset("classic", players=players), seed=players)
        record = record_from_state(state, names=[f"P{i}" for i in range(players)])
        jsonschema.validate(record, SCHEMA)
        again = state_from_record(json.loads(json.dumps(record)))
        assert again.totals == state.totals and again.finished_hands == state.finished_hands
        assert record_from_state(again, names=record["names"]) == record


def test_replay_result_matches_the_game():
    state = play_random_game(preset("classic", players=4), seed=5)
    result = replay(record_from_state(state))
    assert result["complete"] is True
    assert result["totals"] == state.totals and result["winners"] == state.winners()
    assert len(result["hands"]) == 19
    first = state.finished_hands[0]
    assert result["hands"][0] == {"dealer": first.dealer, "size": 10, "trump": suit_letter(first.trump),
                                  "bids": list(first.bids), "tricks": list(first.tricks),
                                  "scores": list(first.scores)}


def test_spec_example_shape_with_unfinished_hand():
    state = Game(preset("classic", players=4)).new_initial_state(first_dealer=2)
    import random

    rng = random.Random(2)
    state.apply(state.sample_chance(rng))
    state.apply(state.sample_chance(rng))
    state.apply(make_bid(3, 1))
    state.apply(make_bid(0, 2))
    record = record_from_state(state)
    assert record["hands"][0]["bids"] == [1, 2] and record["hands"][0]["plays"] == []
    result = replay(record)
    assert result == {"complete": False, "totals": [0, 0, 0, 0], "winners": [],
                      "hands": [{"dealer": 2, "size": 10, "trump": result["hands"][0]["trump"],
                                 "bids": [2, None, None, 1], "tricks": [0, 0, 0, 0], "scores": None}]}


def test_unfinished_records_mid_trick():
    state = play_random_game(preset("classic", players=3), seed=9)
    record = record_from_state(state)
    record["hands"] = record["hands"][:3]
    record["hands"][2]["plays"] = record["hands"][2]["plays"][:7]
    result = replay(record)
    assert result["complete"] is False and result["winners"] == []
    assert sum(result["hands"][2]["tricks"]) == 2 and result["hands"][2]["scores"] is None
    assert result["totals"] == [sum(h["scores"][s] for h in result["hands"][:2]) for s in range(3)]


def test_readers_accept_lenient_card_notation():
    record = legal_record(seed=3)
    hand = record["hands"][0]
    hand["deal"][0] = [card.replace("T", "10").lower() for card in hand["deal"][0]]
    hand["plays"] = [card.replace("S", "♠") for card in hand["plays"]]
    assert replay(record)["complete"]


def test_scoresheet_hands():
    rules = preset("classic", players=4)
    state = Game(rules).new_initial_state(first_dealer=0)
    state.apply(Scoresheet(turn_up=parse_card("7H")))
    for seat, bid in zip((1, 2, 3, 0), (1, 2, 0, 3), strict=True):
        state.apply(make_bid(seat, bid))
    state.apply(ReportTricks((3, 1, 6, 0)))
    state.apply(Scoresheet(trump=parse_card("2S") // 13))
    record = record_from_state(state)
    assert record["hands"][0] == {"dealer": 0, "size": 10, "trump": "7H", "bids": [1, 2, 0, 3],
                                  "tricks": [3, 1, 6, 0]}
    assert record["hands"][1] == {"dealer": 1, "size": 9, "trump": "S", "bids": []}
    jsonschema.validate(record, SCHEMA)
    result = replay(record)
    assert result["hands"][0]["scores"] == [13, 11, 0, 10]
    assert result["hands"][1]["trump"] == "S" and result["hands"][1]["scores"] is None
    assert record_from_state(state_from_record(record)) == record


def test_mixed_records_of_deals_and_scoresheets():
    record = legal_record(players=3, seed=4)
    played = replay(record)
    hand = record["hands"][1]
    record["hands"][1] = {"dealer": hand["dealer"], "size": hand["size"], "trump": hand["trump"][1],
                          "bids": hand["bids"], "tricks": played["hands"][1]["tricks"]}
    assert replay(record) == played


# ------------------------------------------------------------------- errors: kind, hand, index


def test_document_errors():
    record = legal_record()
    assert error_of({**record, "format": "ohhell/2"})[:2] == ("bad-format", None)
    assert error_of({**record, "rules": {"preset": "bridge", "players": 4}})[0] == "bad-format"
    assert error_of({**record, "rules": {"preset": "classic", "players": 9}})[0] == "bad-format"
    assert error_of({**record, "rules": {"preset": "classic"}})[0] == "bad-format"
    assert error_of({**record, "first_dealer": 4}) == ("bad-dealer", None, None)
    assert error_of({**record, "first_dealer": "0"})[0] == "bad-format"
    assert error_of({k: v for k, v in record.items() if k != "hands"})[0] == "bad-format"
    assert error_of([])[0] == "bad-format"
    assert error_of({**record, "names": ["a"]})[0] == "bad-format"


def test_hand_header_errors():
    record = legal_record()
    broken = copy.deepcopy(record)
    broken["hands"][3]["dealer"] = (broken["hands"][3]["dealer"] + 1) % 4
    assert error_of(broken) == ("bad-dealer", 3, None)
    broken = copy.deepcopy(record)
    broken["hands"][5]["size"] += 1
    assert error_of(broken) == ("bad-size", 5, None)


def test_deal_errors():
    record = legal_record()
    broken = copy.deepcopy(record)
    broken["hands"][2]["deal"][1][0] = "1X"
    assert error_of(broken) == ("bad-card", 2, None)
    broken = copy.deepcopy(record)
    broken["hands"][2]["deal"][1][0] = broken["hands"][2]["deal"][0][0]
    assert error_of(broken) == ("bad-deal", 2, None)
    broken = copy.deepcopy(record)
    broken["hands"][2]["deal"][1].pop()
    assert error_of(broken) == ("bad-deal", 2, None)
    broken = copy.deepcopy(record)
    broken["hands"][2]["deal"].pop()
    assert error_of(broken) == ("bad-deal", 2, None)


def test_trump_errors():
    record = legal_record()
    broken = copy.deepcopy(record)
    broken["hands"][0]["trump"] = broken["hands"][0]["deal"][2][3]
    assert error_of(broken) == ("bad-trump", 0, None)
    broken = copy.deepcopy(record)
    broken["hands"][0]["trump"] = None
    assert error_of(broken) == ("bad-trump", 0, None)
    broken = copy.deepcopy(record)
    broken["hands"][0]["trump"] = "QQ"
    assert error_of(broken) == ("bad-card", 0, None)
    river = legal_record(name="up-and-down-the-river", players=5, seed=2)
    river["hands"][-1]["trump"] = "2S"  # the last hand has no trump: no card is turned
    assert error_of(river) == ("bad-trump", 9, None)
    kachuful = legal_record(name="kachuful", seed=2)
    kachuful["hands"][0]["trump"] = "2S"
    assert error_of(kachuful) == ("bad-trump", 0, None)


def hook_hand_index(record):
    """A hand index, its dealer's bid position, and a bid that breaks the hook there."""
    for index, hand in enumerate(record["hands"]):
        others = sum(hand["bids"][:-1])
        forbidden = hand["size"] - others
        if 0 <= forbidden <= hand["size"]:
            return index, forbidden
    raise AssertionError("no hand with a forbidden bid")


def test_bid_errors():
    record = legal_record()
    broken = copy.deepcopy(record)
    broken["hands"][1]["bids"][2] = 10  # hand 1 has 9 cards
    assert error_of(broken) == ("illegal-bid", 1, 2)
    broken = copy.deepcopy(record)
    broken["hands"][1]["bids"][0] = -1
    assert error_of(broken) == ("illegal-bid", 1, 0)
    broken = copy.deepcopy(record)
    index, forbidden = hook_hand_index(broken)
    broken["hands"][index]["bids"][3] = forbidden
    assert error_of(broken) == ("illegal-bid", index, 3)
    broken = copy.deepcopy(record)
    broken["hands"][1]["bids"].append(0)
    assert error_of(broken) == ("illegal-bid", 1, 4)
    broken = copy.deepcopy(record)
    broken["hands"][1]["bids"][1] = "two"
    assert error_of(broken) == ("bad-format", 1, 1)


def revoke(record, hand_index):
    """Make a player in hand ``hand_index`` fail to follow suit; returns the play index."""
    state = state_from_record({**record, "hands": record["hands"][:hand_index]})
    hand = record["hands"][hand_index]
    state_from = copy.deepcopy(record)
    state_from["hands"] = record["hands"][:hand_index + 1]
    plays = hand["plays"]
    full = state_from_record({**record, "hands": record["hands"][:hand_index] + [{**hand, "plays": []}]})
    del state
    for position, text in enumerate(plays):
        seat = full.turn
        led = full.trick_suit()
        held = full.hand(seat)
        card = parse_card(text)
        if led is not None and card // 13 == led:
            other = [c for c in held if c // 13 != led]
            if other:
                from ohhell.cards import card_name

                plays[position] = card_name(other[0])
                return position
        from ohhell.actions import make_play

        full.apply(make_play(seat, card))
    raise AssertionError("no revoke possible")


def test_play_errors():
    record = legal_record(seed=7)
    broken = copy.deepcopy(record)
    position = revoke(broken, 0)
    kind, hand, index = error_of(broken)
    assert (kind, hand, index) == ("illegal-play", 0, position)
    broken = copy.deepcopy(record)
    broken["hands"][0]["plays"][5] = broken["hands"][0]["deal"][broken["hands"][0]["dealer"]][0]
    assert error_of(broken)[:2] == ("illegal-play", 0)
    broken = copy.deepcopy(record)
    broken["hands"][0]["plays"][4] = "ZZ"
    assert error_of(broken) == ("bad-card", 0, 4)
    broken = copy.deepcopy(record)
    broken["hands"][0]["plays"].append("AS")
    assert error_of(broken) == ("illegal-play", 0, 40)
    broken = copy.deepcopy(record)
    broken["hands"][0]["bids"] = broken["hands"][0]["bids"][:2]
    assert error_of(broken) == ("illegal-play", 0, 0)


def test_hand_sequence_errors():
    record = legal_record()
    broken = copy.deepcopy(record)
    broken["hands"][4]["plays"] = broken["hands"][4]["plays"][:-1]
    assert error_of(broken) == ("bad-format", 5, None)
    broken = copy.deepcopy(record)
    broken["hands"].append(copy.deepcopy(broken["hands"][-1]))
    assert error_of(broken) == ("bad-format", 19, None)


def test_scoresheet_errors():
    record = {"format": "ohhell/1", "rules": {"preset": "classic", "players": 3}, "first_dealer": 0,
              "hands": [{"bids": [3, 2, 4], "tricks": [3, 2, 4], "trump": "H"}]}
    assert error_of(record) == ("bad-tricks", 0, None)  # 9 tricks in a 10-card hand
    record["hands"][0]["tricks"] = [3, 2]
    assert error_of(record) == ("bad-tricks", 0, None)
    record["hands"][0]["tricks"] = [4, 3, 3]  # by seat; the bids are in bidding order: seats 1, 2, 0
    assert replay(record)["hands"][0]["scores"] == [14, 13, 0]
    record["hands"][0]["bids"] = [3, 2, 5]  # the dealer (seat 0, last) makes 10
    assert error_of(record) == ("illegal-bid", 0, 2)
    record["hands"][0]["bids"] = [3, 2, 4]
    record["hands"][0]["trump"] = "Q"
    assert error_of(record)[0] == "bad-trump"


def test_boerenbridge_record_with_simultaneous_bids_and_non_bidders():
    state = play_random_game(preset("boerenbridge", players=4), seed=3)
    record = record_from_state(state)
    jsonschema.validate(record, SCHEMA)
    result = replay(record)
    assert result["complete"] and 100 in result["totals"]
    assert record_from_state(state_from_record(record)) == record
    late = next(i for i, hand in enumerate(record["hands"]) if None in hand["bids"])
    broken = copy.deepcopy(record)
    broken["hands"][late]["bids"][broken["hands"][late]["bids"].index(None)] = 1
    assert error_of(broken)[:2] == ("illegal-bid", late)


def test_a_wrong_turned_card_is_reported_as_a_trump_problem():
    """A turned card of another suit makes other tricks win: the record's next cards then seem
    played by seats that do not hold them. The replay points at the trump (``bad-trump``, the
    hand, no index), not at a play."""
    state = play_random_game(preset("german-bridge", players=4), seed=3)
    record = record_from_state(state)
    assert record["hands"][1]["trump"] == "2S"
    record["hands"][1]["trump"] = "3H"  # not dealt: a legal turned card, but hearts are not trump
    with pytest.raises(RecordError) as error:
        replay(record)
    assert (error.value.kind, error.value.hand, error.value.index) == ("bad-trump", 1, None)
    assert "with hearts as trump" in error.value.message and "with spades as trump they do" in error.value.message
    # A play that is wrong whatever the trump stays a play problem.
    record = record_from_state(state)
    hand = record["hands"][1]
    hand["plays"][1], hand["plays"][5] = hand["plays"][5], hand["plays"][1]
    assert error_of(record)[0] == "illegal-play"
