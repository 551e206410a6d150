#!/usr/bin/env python3
"""A complete Oh Hell bot in plain Python (standard library only), speaking ohhell's bot
protocol: one JSON message per line on stdin, one answer per line on stdout
(docs/bot-protocol.md).

Try it:  ohhell arena --bot "cmd:python3 examples/bots/simple_bot.py" --bot basic --bot basic --bot basic

Its strategy is deliberately simple, so that it is easy to read and to improve:

* bid: count the cards likely to win a trick — aces, kings of long suits, high trumps —
  and take the legal bid nearest to that count;
* play: while it still needs tricks, play its strongest legal card; once its bid is made,
  its weakest (ducking).
"""

from __future__ import annotations

import json
import sys

PROTOCOL = 1
RANKS = "23456789TJQKA"


def rank(card: str) -> int:
    """0 for a two … 12 for an ace; 13 for a joker."""
    return 13 if card.startswith("X") else RANKS.index(card[0])


def suit(card: str) -> str:
    return "X" if card.startswith("X") else card[1]


def strength(card: str, trump: str | None) -> float:
    """A rough chance that ``card`` wins a trick."""
    if suit(card) == "X":
        return 0.9
    value = rank(card) / 12
    if trump is not None and suit(card) == trump:
        return 0.45 + 0.55 * value
    return max(0.0, value - 0.6) * 2.2  # only aces, kings and maybe queens win off-trump


def choose_bid(view: dict, options: list[dict]) -> int:
    expected = sum(strength(card, view["trump"]) for card in view["hand"] if card != "??")  # ?? = face down
    bids = [option for option in range(len(options))]
    return min(bids, key=lambda index: abs(options[index]["bid"] - expected))


def choose_play(view: dict, options: list[dict]) -> int:
    seat = view["seat"]
    trump = view["trump"]
    need_tricks = view["bids"][seat] is not None and view["tricks_won"][seat] < view["bids"][seat]
    cards = [option["card"] for option in options]  # "hidden": a card it cannot see (Devil's Bridge)
    scores = [strength(card, trump) if card != "hidden" else 0.5 for card in cards]
    pick = max if need_tricks else min
    return pick(range(len(options)), key=lambda index: scores[index])


def answer(message: dict) -> dict | None:
    kind = message.get("type")
    if kind == "hello":
        if message.get("protocol") != PROTOCOL:
            print(f"simple_bot: protocol {message.get('protocol')} is not {PROTOCOL}", file=sys.stderr)
        return {"type": "ready", "protocol": PROTOCOL, "name": "simple_bot.py"}
    if kind == "act":
        options = message["options"]
        view = message["view"]
        if options[0]["type"] == "bid":
            choice = choose_bid(view, options)
        elif options[0]["type"] == "play":
            choice = choose_play(view, options)
        else:  # declare a joker: high while tricks are needed
            seat = view["seat"]
            want = view["bids"][seat] is not None and view["tricks_won"][seat] < view["bids"][seat]
            choice = next((i for i, o in enumerate(options) if o.get("high") == want), 0)
        return {"type": "action", "id": message["id"], "option": choice}
    return None  # result: nothing to answer


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if message.get("type") == "bye":
            break
        reply = answer(message)
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
