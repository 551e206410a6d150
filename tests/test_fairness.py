"""Provably fair deals (issue 16, part 3): the derivation and its test vectors, the server's
helpers, the record extension, ``ohhell verify`` on real and tampered records, and that nothing
shown before the end of a hand tells anything about its cards."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
import re
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from ohhell import Game, preset
from ohhell.actions import Cut, Draw, Shuffle
from ohhell.cards import card_name, parse_card
from ohhell.cli import main
from ohhell.fairness import (
    DealStream,
    FairEvent,
    FairnessError,
    FairTable,
    chance_actions,
    commitment,
    deal_message,
    fisher_yates,
    new_contribution,
    new_seed,
    verify_record,
)
from ohhell.game import Phase, State
from ohhell.i18n import set_language
from ohhell.record import record_from_state, replay
from ohhell.rules import Rules

DOCS = Path(__file__).resolve().parent.parent / "docs" / "fairness.md"
SCHEMA = json.loads(resources.files("ohhell").joinpath("schema/record-1.json").read_text())


def docs_block(marker: str, language: str) -> str:
    """The fenced block that follows ``<!-- marker -->`` in docs/fairness.md."""
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(rf"<!-- {marker} -->\s*```{language}\n(.*?)```", text, re.S)
    assert found, marker
    return found.group(1)


VECTORS: list[dict[str, Any]] = json.loads(docs_block("test vectors", "json"))


def names(cards: Any) -> str:
    return " ".join(card_name(card) for card in cards)


# ------------------------------------------------------------------------------ a served game


def fair_game(rules: Rules, scope: str = "K7QX2M", seed: int = 1, people: tuple[int, ...] = (0, 2),
              first_dealer: int | None = None) -> tuple[dict[str, Any], FairTable, State]:
    """A whole game dealt as the server deals it: ``people`` contribute, the others are bots,
    except the last person, who never answers (recorded as ``timeout``) in odd hands."""
    rng = random.Random(seed)
    state = Game(rules).new_initial_state(first_dealer)
    fair = FairTable(scope, rules.players)
    while not state.is_terminal():
        if state.is_chance_node():
            bots = {seat: "bot" for seat in range(rules.players) if seat not in people}
            fair.open_hand(state, absent=bots)
            for seat in people:
                if not (seat == people[-1] and state.hand_index % 2):
                    fair.contribute(seat, new_contribution())
            for action in fair.deal(state):
                state.apply(action)
        else:
            seat = state.turn if state.turn is not None else state.actors()[0]
            state.apply(rng.choice(state.legal_actions(seat)))
    return fair.annotate(record_from_state(state), state), fair, state


@pytest.fixture(scope="module")
def classic_record() -> dict[str, Any]:
    record, _fair, _state = fair_game(preset("classic", players=4, max_size=4))
    return record


def verdicts_of(record: dict[str, Any], **options: Any) -> list[str]:
    return [verdict.verdict for verdict in verify_record(record, **options)]


# ------------------------------------------------------------------------------ the derivation


def test_the_commitment_is_the_sha256_of_the_seed_bytes():
    seed = new_seed()
    assert len(seed) == 64 and commitment(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert commitment(seed.upper()) == commitment(seed)
    for bad in ("00" * 31, "zz" * 32, 7, None):
        with pytest.raises(FairnessError):
            commitment(bad)  # type: ignore[arg-type]


def test_the_stream_is_hmac_sha256_in_counter_mode():
    seed, message = new_seed(), deal_message("per-event", "E1", 2)
    stream = DealStream(seed, message)
    key = bytes.fromhex(seed)
    expected = b"".join(hmac.new(key, message + i.to_bytes(4, "big"), hashlib.sha256).digest() for i in range(3))
    assert stream.read(10) + stream.read(50) + stream.read(36) == expected


def test_below_rejects_the_words_that_would_bias_it():
    class Scripted(DealStream):
        def __init__(self, words: list[int]) -> None:
            self.words = words

        def read(self, count: int) -> bytes:
            return self.words.pop(0).to_bytes(4, "big")

    # 2**32 mod 3 == 1: the one word 2**32 - 1 is drawn again; 2**32 - 2 is kept.
    assert Scripted([2**32 - 1, 2**32 - 2]).below(3) == (2**32 - 2) % 3
    assert Scripted([2**32 - 1, 7]).below(3) == 1
    assert Scripted([2**32 - 1]).below(2**32) == 2**32 - 1
    with pytest.raises(ValueError):
        Scripted([]).below(0)


def test_below_and_fisher_yates_are_uniform():
    stream = DealStream(new_seed(), b"uniform")
    counts = Counter(stream.below(6) for _ in range(30_000))
    chi2 = sum((count - 5000) ** 2 / 5000 for count in counts.values())
    assert len(counts) == 6 and chi2 < 25  # 5 degrees of freedom: p < 0.0002 if it fails
    orders = Counter(fisher_yates((0, 1, 2), stream) for _ in range(12_000))
    chi2 = sum((count - 2000) ** 2 / 2000 for count in orders.values())
    assert len(orders) == 6 and chi2 < 25


@pytest.mark.parametrize("vector", VECTORS, ids=[vector["scheme"] for vector in VECTORS])
def test_the_documented_test_vectors(vector):
    rules = Rules.from_json(vector["rules"])
    message = deal_message(vector["scheme"], vector["scope"], vector["hand"], vector["contributions"])
    assert message.decode() == vector["message"]
    assert commitment(vector["seed"]) == vector["commitment"]
    assert DealStream(vector["seed"], message).read(32).hex() == vector["block0"]
    state = Game(rules).new_initial_state(vector["first_dealer"])
    actions = chance_actions(state, vector["seed"], message)
    draws = [[action.seat, card_name(action.card)] for action in actions if isinstance(action, Draw)]
    assert draws == vector.get("cut_for_deal", [])
    shuffles = [action for action in actions if isinstance(action, Shuffle)]
    assert len(shuffles) == 1 and names(shuffles[0].order) == vector["shuffle"]
    assert isinstance(actions[-1], Cut) and actions[-1].position == vector["cut"]
    for action in actions:
        state.apply(action)
    assert state.first_dealer == vector.get("first_dealer_drawn", vector["first_dealer"])
    assert [names(cards) for cards in state.deal] == vector["deal"]
    assert card_name(state.turn_up) == vector["trump"]


@pytest.mark.parametrize("vector", VECTORS, ids=[vector["scheme"] for vector in VECTORS])
def test_the_reference_code_of_the_docs_derives_the_vectors_on_its_own(vector):
    """docs/fairness.md's standard-library derivation, run as printed, agrees with the library."""
    namespace: dict[str, Any] = {}
    exec(docs_block("reference code", "python"), namespace)  # our own documentation, as printed
    rules = Rules.from_json(vector["rules"])
    deck = [f"{rank}{suit}" for suit in "SHDC" for rank in "23456789TJQKA"]
    assert [parse_card(card) for card in deck] == list(Game(rules).deck)
    message = vector["message"].encode("ascii")
    dealer = vector.get("first_dealer_drawn", vector["first_dealer"])
    stream = namespace["words"](bytes.fromhex(vector["seed"]), message)
    left = [card for card in deck if card not in ("X1", "X2")]
    for _seat, card in vector.get("cut_for_deal", []):  # no tie in the vectors: one draw each
        assert left.pop(namespace["below"](stream, len(left))) == card
    size = rules.hand_plan(0).size
    cards, cut, hands, turn_up = namespace["derive_hand"](stream, deck, rules.players, dealer, size, True)
    assert " ".join(cards) == vector["shuffle"] and cut == vector["cut"]
    assert [" ".join(hand) for hand in hands] == vector["deal"] and turn_up == vector["trump"]


def test_chance_actions_start_at_the_start_of_a_hand_and_change_nothing():
    state = Game(preset("classic", players=4)).new_initial_state()
    seed, message = new_seed(), deal_message("per-event", "E", 0)
    before = state.clone()
    actions = chance_actions(state, seed, message)
    assert state == before and isinstance(actions[0], Draw) and isinstance(actions[-1], Cut)
    assert actions == chance_actions(state, seed, message)  # deterministic
    state.apply(actions[0])
    with pytest.raises(FairnessError) as error:
        chance_actions(state, seed, message)  # in the middle of the cut for the deal
    assert error.value.kind == "wrong-time"
    for action in actions[1:]:
        state.apply(action)
    with pytest.raises(FairnessError):
        chance_actions(state, seed, message)  # bidding
    scoresheet = Game(preset("classic", players=4, real_cards=True)).new_initial_state(first_dealer=0)
    with pytest.raises(FairnessError):
        chance_actions(scoresheet, seed, message)


@pytest.mark.parametrize("name,players", [("classic", 3), ("jokers", 4), ("ne-blackout", 5), ("7-truf", 4),
                                          ("boerenbridge", 4), ("up-and-down-the-river", 7)])
def test_every_deck_is_dealt_by_the_derivation(name, players):
    rules = preset(name, players=players)
    state = Game(rules).new_initial_state()
    for action in chance_actions(state, new_seed(), deal_message("per-event", "E", 0)):
        state.apply(action)
    assert state.phase == Phase.BIDDING and sorted(state.pack) == sorted(Game(rules).deck)


def test_messages_are_checked():
    with pytest.raises(FairnessError):
        deal_message("per-table", "K7QX2M", 0)
    for scope in ("", "two words", "line\nbreak", "x" * 129, "-leading"):
        with pytest.raises(FairnessError):
            deal_message("per-hand", scope, 0)
    with pytest.raises(FairnessError):
        deal_message("per-hand", "K7QX2M", -1)
    with pytest.raises(FairnessError):
        deal_message("per-event", "E", 0, ["00" * 32])
    with pytest.raises(FairnessError):
        deal_message("per-hand", "K7QX2M", 0, ["00" * 31])
    assert deal_message("per-hand", "K", 0, ["AB" * 32]) == deal_message("per-hand", "K", 0, ["ab" * 32])


# ------------------------------------------------------------------------------ the server's helpers


def start(players: int = 4, first_dealer: int | None = None) -> State:
    return Game(preset("classic", players=players)).new_initial_state(first_dealer)


def test_a_table_commits_before_the_deal_and_takes_one_contribution_per_person():
    state, fair = start(), FairTable("K7QX2M", 4)
    with pytest.raises(FairnessError) as error:
        fair.deal(state)  # no commitment was published
    assert error.value.kind == "not-open"
    with pytest.raises(FairnessError) as error:
        fair.contribute(0, new_contribution())
    assert error.value.kind == "not-open"
    published = fair.open_hand(state, absent={3: "bot", 1: "away"})
    assert fair.open_hand(state) == published  # the same seed after a restart
    assert fair.waiting() == (0, 2)
    fair.contribute(0, "AB" * 32)
    problems = {
        "bad-contribution": lambda: fair.contribute(2, "00" * 31),
        "already-contributed": lambda: fair.contribute(0, "cd" * 32),
        "bad-seat": lambda: fair.contribute(4, "cd" * 32),
        "bad-data": lambda: fair.skip(2, "asleep"),
    }
    for kind, attempt in problems.items():
        with pytest.raises(FairnessError) as error:
            attempt()
        assert error.value.kind == kind
    for bad in ("g0" * 32, 12, None, "ab" * 33):
        with pytest.raises(FairnessError):
            fair.contribute(2, bad)
    fair.contribute(1, new_contribution())  # the person came back in time
    assert fair.waiting() == (2,)
    actions = fair.deal(state)  # seat 2 did not answer in time
    assert fair.waiting() == () and fair.deal(state) == actions
    with pytest.raises(FairnessError) as error:
        fair.contribute(2, new_contribution())
    assert error.value.kind == "closed"
    for action in actions:
        state.apply(action)
    entry = fair.entry(0, state)
    assert entry.seed is None and entry.commitment == published  # the hand is in progress
    assert entry.contributions[0] == "ab" * 32 and entry.contributions[2] is None
    assert entry.missing == (None, None, "timeout", "bot")
    with pytest.raises(FairnessError):
        fair.entry(1, state)  # not dealt
    with pytest.raises(FairnessError) as error:
        fair.open_hand(state)  # bidding: too late to open a hand
    assert error.value.kind == "wrong-time"
    with pytest.raises(FairnessError) as error:
        FairTable("K7QX2M", 5).open_hand(start())
    assert error.value.kind == "bad-seat"


def test_a_table_survives_a_restart_through_its_json():
    state, fair = start(first_dealer=1), FairTable("K7QX2M", 4)
    published = fair.open_hand(state, absent={1: "bot", 2: "away"})
    fair.contribute(0, new_contribution())
    again = FairTable.from_json(json.loads(json.dumps(fair.to_json())))
    assert again.open_hand(state) == published and again.waiting() == (3,)
    assert again.deal(state) == fair.deal(state)


def test_the_seed_is_revealed_only_once_the_hand_is_over():
    record, _fair, _state = fair_game(preset("classic", players=4, max_size=2), people=(1,))
    assert all("seed" in hand["fair"] for hand in record["hands"])  # a finished game: every seed
    # Half-way through a hand: its entry has no seed, and neither has anything the table shows.
    state = Game(preset("classic", players=4)).new_initial_state(first_dealer=0)
    fair = FairTable("K7QX2M", 4)
    fair.open_hand(state, absent={1: "bot", 2: "bot", 3: "bot"})
    fair.contribute(0, new_contribution())
    for action in fair.deal(state):
        state.apply(action)
    secret = fair.to_json()["hands"]["0"]["seed"]
    shown = json.dumps([fair.entry(0, state).to_json(), fair.annotate(record_from_state(state), state)])
    assert secret not in shown and '"seed"' not in shown
    assert fair.entries(state)[0].seed is None


def test_an_event_gives_every_table_the_same_cards_and_reveals_at_the_end():
    event = FairEvent("duplicate-42")
    again = FairEvent.from_json(event.to_json())
    assert again.commitment == event.commitment
    rules = preset("classic", players=4, max_size=3)
    records = []
    for table_seed in (1, 2):
        rng = random.Random(table_seed)
        state = Game(rules).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                for action in (event if table_seed == 1 else again).deal(state):
                    state.apply(action)
            else:
                state.apply(rng.choice(state.legal_actions(state.turn)))
        records.append(record_from_state(state))
    first, second = records
    assert first["cut"] == second["cut"]
    assert [hand["deal"] for hand in first["hands"]] == [hand["deal"] for hand in second["hands"]]
    assert [hand["plays"] for hand in first["hands"]] != [hand["plays"] for hand in second["hands"]]
    running = event.annotate(copy.deepcopy(first), revealed=False)
    assert set(verdicts_of(running)) == {"not-revealed"}
    assert event.to_json()["seed"] not in json.dumps(running)
    done = event.annotate(copy.deepcopy(second), revealed=True)
    jsonschema.validate(done, SCHEMA)
    assert set(verdicts_of(done)) == {"verified"}
    assert set(verdicts_of(done, scope="duplicate-42")) == {"verified"}


# ------------------------------------------------------------------------------ records


@pytest.mark.parametrize("name,players,first_dealer", [
    ("classic", 4, None), ("classic", 5, 2), ("ne-blackout", 5, None), ("7-truf", 4, None), ("jokers", 3, 0),
])
def test_real_records_verify_hand_by_hand_and_still_replay(name, players, first_dealer):
    knobs: dict[str, Any] = {"max_size": 3} if name in ("classic", "jokers") else {}
    if name in ("ne-blackout",):
        knobs["hand_count"] = 2
    rules = preset(name, players=players, **knobs)
    record, _fair, state = fair_game(rules, first_dealer=first_dealer, people=(0, 1))
    jsonschema.validate(record, SCHEMA)
    verdicts = verify_record(record)
    assert [v.verdict for v in verdicts] == ["verified"] * len(state.finished_hands)
    assert verdicts[1].scheme == "per-hand" and verdicts[1].scope == "K7QX2M"
    assert "1 of" in verdicts[1].message and "2 of" in verdicts[0].message  # seat 1 timed out in hand 1
    assert replay(record)["totals"] == state.totals  # replay reads the extension and ignores it


def test_old_records_replay_and_have_no_fairness_data(classic_record):
    old = copy.deepcopy(classic_record)
    for hand in old["hands"]:
        del hand["fair"]
    jsonschema.validate(old, SCHEMA)
    assert replay(old) == replay(classic_record)
    assert set(verdicts_of(old)) == {"no-fairness-data"}


def tampered(record: dict[str, Any], hand: int = 1) -> tuple[dict[str, Any], dict[str, Any]]:
    changed = copy.deepcopy(record)
    return changed, changed["hands"][hand]


def test_a_changed_seed_is_caught(classic_record):
    record, hand = tampered(classic_record)
    hand["fair"]["seed"] = new_seed()
    verdicts = verify_record(record)
    assert verdicts[1].verdict == "commitment-mismatch" and "commitment does not match" in verdicts[1].message
    assert [v.verdict for i, v in enumerate(verdicts) if i != 1] == ["verified"] * (len(verdicts) - 1)


def test_a_forged_commitment_is_caught(classic_record):
    record, hand = tampered(classic_record)
    hand["fair"]["commitment"] = commitment(new_seed())
    assert verdicts_of(record)[1] == "commitment-mismatch"
    # A new seed with its own commitment: they agree, but the cards are not the ones dealt.
    record, hand = tampered(classic_record)
    hand["fair"]["seed"] = seed = new_seed()
    hand["fair"]["commitment"] = commitment(seed)
    assert verdicts_of(record)[1] == "deal-mismatch"


def test_a_swapped_card_is_caught_at_that_card(classic_record):
    record, hand = tampered(classic_record)
    deal = hand["deal"]
    deal[0][1], deal[2][0] = deal[2][0], deal[0][1]
    verdicts = verify_record(record)
    found = verdicts[1]
    assert found.verdict == "deal-mismatch"
    assert (found.details["seat"], found.details["index"]) == (0, 1)
    assert found.details["record"] == deal[0][1] and found.details["derived"] == deal[2][0]
    assert f"card 1 of seat 0 is {deal[0][1]} in the record, but {deal[2][0]}" in found.message
    # The plays no longer fit the deal: the later hands cannot be checked.
    assert all(v.verdict in ("not-checked", "verified") for v in verdicts[2:])
    assert verdicts[0].verdict == "verified"


def test_a_changed_contribution_or_scope_is_caught(classic_record):
    record, hand = tampered(classic_record)
    seat = next(s for s, value in enumerate(hand["fair"]["contributions"]) if value is not None)
    hand["fair"]["contributions"][seat] = new_contribution()
    assert verdicts_of(record)[1] == "deal-mismatch"
    record, hand = tampered(classic_record)
    hand["fair"]["contributions"][seat] = None  # "it did not answer in time"
    hand["fair"]["missing"][seat] = "timeout"
    assert verdicts_of(record)[1] == "deal-mismatch"
    record, _hand = tampered(classic_record)
    for later in record["hands"]:
        later["fair"]["scope"] = "OTHER1"  # the same seeds, claimed for another table
    assert verdicts_of(record)[0] == "cut-mismatch"  # the first hand begins with the cut for the deal
    assert set(verdicts_of(record)[1:]) <= {"deal-mismatch", "not-checked"}


def test_a_changed_turned_card_and_a_changed_cut_are_caught(classic_record):
    record, hand = tampered(classic_record)
    dealt = {card for cards in hand["deal"] for card in cards}
    hand["trump"] = next(card_name(c) for c in range(52) if card_name(c) not in dealt and card_name(c) != hand["trump"])
    assert verdicts_of(record)[1] == "trump-mismatch"
    record, _hand = tampered(classic_record)
    assert "cut" in record
    record["cut"][0][1] = "AS" if record["cut"][0][1] != "AS" else "KS"
    found = verify_record(record)[0]
    assert found.verdict == "cut-mismatch" and found.details["index"] == 0


def test_a_reused_seed_an_unrevealed_seed_and_malformed_data_are_reported(classic_record):
    record, hand = tampered(classic_record, 2)
    hand["fair"] = copy.deepcopy(record["hands"][0]["fair"])
    found = verify_record(record)[2]
    assert found.verdict == "seed-reused" and found.details["other"] == 0
    record, hand = tampered(classic_record)
    del hand["fair"]["seed"]
    assert verdicts_of(record)[1] == "not-revealed"
    for change in ({"contributions": [None]}, {"missing": ["bot", None, None, None]}, {"scheme": "per-table"},
                   {"commitment": "12"}, {"seed": "xyz"}, {"scope": "a b"}):
        record, hand = tampered(classic_record)
        hand["fair"].update(change)
        assert verdicts_of(record)[1] == "bad-fairness-data", change
    record, hand = tampered(classic_record)
    hand["fair"] = "yes"
    assert verdicts_of(record)[1] == "bad-fairness-data"


def test_the_scope_is_checked_against_the_one_the_reader_knows(classic_record):
    assert set(verdicts_of(classic_record, scope="K7QX2M")) == {"verified"}
    assert set(verdicts_of(classic_record, scope="ZZZ999")) == {"scope-mismatch"}
    record, hand = tampered(classic_record, 2)
    hand["fair"]["scope"] = "ZZZ999"
    assert verdicts_of(record)[2] == "scope-mismatch"


def test_a_record_that_cannot_be_read_raises_and_a_broken_hand_is_reported(classic_record):
    from ohhell.errors import RecordError

    with pytest.raises(RecordError):
        verify_record({"format": "ohhell/2"})
    record, hand = tampered(classic_record, 1)
    hand["plays"][0] = hand["plays"][1]  # a card the seat does not hold: the deal is right
    verdicts = verify_record(record)
    assert verdicts[0].verdict == "verified" and verdicts[1].verdict == "record-error"
    assert {v.verdict for v in verdicts[2:]} == {"not-checked"}


# ------------------------------------------------------------------------------ nothing leaks


def bits(hex_text: str) -> int:
    return int(hex_text, 16)


def test_commitments_of_related_seeds_are_unrelated():
    # Seeds one bit apart: their commitments differ in about half their 256 bits, and no bit
    # of a commitment follows the seed.
    rng = random.Random(7)
    distances = []
    agreement = [0] * 256
    for _ in range(300):
        seed = rng.getrandbits(256)
        flipped = seed ^ (1 << rng.randrange(256))
        first, second = (commitment(f"{value:064x}") for value in (seed, flipped))
        distances.append((bits(first) ^ bits(second)).bit_count())
        same = ~(bits(first) ^ seed)
        for bit in range(256):
            agreement[bit] += same >> bit & 1
    mean = sum(distances) / len(distances)
    assert 124 < mean < 132 and min(distances) > 90
    assert all(100 < count < 200 for count in agreement)  # 300 draws of p = 1/2: far out of ±50 is a leak


def test_no_card_can_be_recovered_from_the_commitment_and_the_contributions():
    """What is public before the end of a hand (the commitment, the contributions, the scope and
    the hand index) used as the seed in every way that would give the cards away if the
    derivation were careless: no guess places more cards than chance (one in 52 per position)."""
    rules = preset("classic", players=4)
    hits = Counter()
    shuffles = 40
    for _ in range(shuffles):
        state = Game(rules).new_initial_state(first_dealer=0)
        fair = FairTable("LEAK01", 4)
        public_commitment = fair.open_hand(state, absent={1: "bot", 3: "bot"})
        contributions = [new_contribution(), new_contribution()]
        fair.contribute(0, contributions[0])
        fair.contribute(2, contributions[1])
        real = next(a for a in fair.deal(state) if isinstance(a, Shuffle)).order
        entry = fair.entry(0, state)
        message = entry.message(0)
        guesses = {
            "commitment": public_commitment,
            "sha256(commitment)": hashlib.sha256(bytes.fromhex(public_commitment)).hexdigest(),
            "contribution": contributions[0],
            "xor": f"{bits(contributions[0]) ^ bits(contributions[1]) ^ bits(public_commitment):064x}",
            "zero": "00" * 32,
        }
        for name, guess in guesses.items():
            attempt = next(a for a in chance_actions(state, guess, message) if isinstance(a, Shuffle)).order
            hits[name] += sum(a == b for a, b in zip(attempt, real, strict=True))
    # Chance: 1 card in 52 per position, so about 1 per shuffle; 40 shuffles, 5 sigma above ~ 72.
    assert all(count < 72 for count in hits.values()), hits


def test_each_input_changes_every_card():
    seed = new_seed()
    contributions = [new_contribution(), None, new_contribution(), None]
    state = Game(preset("classic", players=4)).new_initial_state(first_dealer=0)

    def order(seed: str = seed, scope: str = "K7QX2M", hand: int = 0, given: Any = tuple(contributions)) -> tuple:
        message = deal_message("per-hand", scope, hand, list(given))
        return chance_actions(state, seed, message)[0].order

    base = order()
    variants = [order(seed=f"{bits(seed) ^ 1:064x}"), order(scope="K7QX2N"), order(hand=1),
                order(given=(contributions[0], None, f"{bits(contributions[2]) ^ 1:064x}", None)),
                order(given=(contributions[0], None, None, None))]
    for other in variants:
        assert sum(a == b for a, b in zip(base, other, strict=True)) < 8  # ~1 by chance


# ------------------------------------------------------------------------------ ohhell verify


def write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "game.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_verify_command_on_a_real_record(tmp_path, classic_record):
    runner = CliRunner()
    result = runner.invoke(main, ["verify", write(tmp_path, classic_record)])
    assert result.exit_code == 0, result.output
    count = len(classic_record["hands"])
    assert f"{count} of {count} hands verified." in result.output
    assert "hand 0 (per-hand, K7QX2M): verified" in result.output
    as_json = json.loads(runner.invoke(main, ["verify", write(tmp_path, classic_record), "--json"]).stdout)
    assert as_json["verified"] is True and len(as_json["hands"]) == count
    assert as_json["hands"][0]["verdict"] == "verified" and as_json["hands"][0]["scope"] == "K7QX2M"
    assert as_json["hands"][1]["fair"] == classic_record["hands"][1]["fair"]  # a player compares their contribution
    assert runner.invoke(main, ["replay", write(tmp_path, classic_record)]).exit_code == 0


def test_verify_command_on_tampered_and_broken_records(tmp_path, classic_record):
    runner = CliRunner()
    record, hand = tampered(classic_record)
    hand["deal"][0][0], hand["deal"][1][0] = hand["deal"][1][0], hand["deal"][0][0]
    result = runner.invoke(main, ["verify", write(tmp_path, record)])
    assert result.exit_code == 1
    assert "hand 1 (per-hand, K7QX2M): not verified: the deal differs from the derivation: card 0 of seat 0" \
        in result.output
    out = json.loads(runner.invoke(main, ["verify", write(tmp_path, record), "--json"]).stdout)
    assert out["verified"] is False and out["hands"][1]["verdict"] == "deal-mismatch"
    assert (out["hands"][1]["seat"], out["hands"][1]["index"]) == (0, 0)
    assert runner.invoke(main, ["verify", write(tmp_path, classic_record), "--scope", "OTHER"]).exit_code == 1
    broken = runner.invoke(main, ["verify", write(tmp_path, "{not json"), "--json"])
    assert broken.exit_code == 1 and json.loads(broken.stdout)["error"]["kind"] == "bad-format"
    assert runner.invoke(main, ["verify", str(tmp_path / "missing.json")]).exit_code == 2
    empty = runner.invoke(main, ["verify", write(tmp_path, {"format": "ohhell/1", "rules": {"preset": "classic",
                                                            "players": 4}, "first_dealer": 0, "hands": []})])
    assert empty.exit_code == 0 and "no hand to verify" in empty.output


def test_verify_speaks_the_players_language(tmp_path, classic_record):
    record, hand = tampered(classic_record)
    hand["fair"]["seed"] = new_seed()
    try:
        result = CliRunner().invoke(main, ["--lang", "ru", "verify", write(tmp_path, record)])
    finally:
        set_language("en")
    assert result.exit_code == 1
    assert "verified" not in result.output and "commitment" not in result.output
    assert "сдача 1 (per-hand, K7QX2M): не проверено: обязательство не совпадает с раскрытым зерном" in result.output
    count = len(record["hands"])
    assert f"Проверено: {count - 1} из {count} сдач." in result.output


# ------------------------------------------------------------------------------ an event's pool


def event_record(event: FairEvent, rules: Rules, play_seed: int = 5) -> dict[str, Any]:
    """A whole game at one table of ``event``, with every hand's ``fair`` entry revealed."""
    rng = random.Random(play_seed)
    state = Game(rules).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            for action in event.deal(state):
                state.apply(action)
        else:
            state.apply(rng.choice(state.legal_actions(state.turn)))
    return event.annotate(record_from_state(state), revealed=True)


POOL = ["ee" * 32, "01" * 32, "7f" * 32]


def test_every_contribution_of_the_pool_changes_the_deal():
    rules = preset("classic", players=4, max_size=3)
    seed = "5a" * 32
    state = Game(rules).new_initial_state(first_dealer=1)

    def deal(pool: list[str] | None) -> list[Any]:
        return FairEvent("club-night", seed, pool=pool).deal(state)

    base = deal(POOL)
    assert deal(list(reversed(POOL))) == base  # the order they came in does not matter
    assert deal(POOL[:2]) != base and deal([*POOL, "00" * 32]) != base
    assert deal(["ef" * 32, *POOL[1:]]) != base
    assert deal([]) != base and deal([]) != deal(None)  # an empty pool is not the per-event scheme
    assert FairEvent("club-night", seed).scheme == "per-event"
    assert deal(None) == FairEvent("club-night", seed).deal(state)


def test_a_pooled_event_verifies_and_a_tampered_pool_is_caught():
    rules = preset("classic", players=4, max_size=3)
    event = FairEvent("club-night", "5a" * 32, pool=POOL, contributors=["0:1", "1:0", "0:3"])
    record = event_record(event, rules)
    jsonschema.validate(record, SCHEMA)
    fair = record["hands"][0]["fair"]
    assert fair["scheme"] == "per-event-pool" and fair["contributions"] == sorted(POOL)
    assert fair["contributors"] == ["1:0", "0:3", "0:1"]  # each label stays with its contribution
    verdicts = verify_record(record, scope="club-night")
    assert {verdict.verdict for verdict in verdicts} == {"verified"}
    assert "3 contributions" in verdicts[0].message
    for change in ("drop", "replace", "add"):
        forged = copy.deepcopy(record)
        for hand in forged["hands"]:
            pool = hand["fair"]["contributions"]
            if change == "drop":
                del pool[0], hand["fair"]["contributors"][0]
            elif change == "replace":
                pool[1] = "02" * 32
            else:
                pool.append("ff" * 32)
                hand["fair"]["contributors"].append("2:2")
        found = verdicts_of(forged)
        assert found[0] in ("cut-mismatch", "deal-mismatch") and set(found[1:]) == {"deal-mismatch"}, change
    unsorted = copy.deepcopy(record)
    unsorted["hands"][0]["fair"]["contributions"].reverse()
    assert verdicts_of(unsorted)[0] == "bad-fairness-data"
    mixed = copy.deepcopy(record)
    mixed["hands"][0]["fair"]["missing"] = [None]
    assert verdicts_of(mixed)[0] == "bad-fairness-data"
    # Before the end of the event: no seed anywhere.
    running = event.annotate(copy.deepcopy(record), revealed=False)
    assert "5a" * 32 not in json.dumps(running) and set(verdicts_of(running)) == {"not-revealed"}


def test_an_empty_pool_says_that_the_server_alone_chose():
    record = event_record(FairEvent("daily-2025-01-02", "33" * 32, pool=[]), preset("classic", players=4, max_size=2))
    verdicts = verify_record(record)
    assert all(verdict.verified for verdict in verdicts)
    assert "server alone chose" in verdicts[0].message
    assert record["hands"][0]["fair"]["contributions"] == [] and "contributors" not in record["hands"][0]["fair"]


def test_a_per_event_record_of_before_the_pool_still_verifies():
    """Backward compatibility: the scheme ``per-event`` (no contributions) of events and daily
    deals stored before the pool derives and verifies as it always did."""
    vector = next(vector for vector in VECTORS if vector["scheme"] == "per-event")
    assert deal_message("per-event", vector["scope"], 0).decode() == vector["message"]
    event = FairEvent("event-of-2025", "77" * 32)
    record = event_record(event, preset("classic", players=3, max_size=3))
    assert "contributions" not in record["hands"][0]["fair"]
    assert {verdict.verdict for verdict in verify_record(record)} == {"verified"}
    assert "server alone chose" in verify_record(record)[0].message
    with pytest.raises(FairnessError):
        deal_message("per-event", "x", 0, ["00" * 32])
