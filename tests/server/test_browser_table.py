"""The card table in a real headless Chromium (Debian's), driven by Playwright: a whole game of
two people, two bots and a spectator (chat with a mute, a reaction, the rematch), 3, 6 and 7
seats on a desktop and on a phone (every name and standing whole), what a player sees at a
glance checked against the server's state (seats clockwise, the bids total and its verdict,
each seat's standing, playable cards raised, cards in front of their players, the trick going
to its winner, sounds off by default, the four-colour deck), a 13-card hand on a phone, a
reload in the middle of a trick, the turn timer, keyboard-only play, animation (and none under
reduced motion), updates that keep focus and open panels, and a phone in Russian with the score
sheet and the history. (axe-core's accessibility check of every page, the table's whole game
included: test_browser_axe.py.)

Tables are made through the HTTP API and the seat's token put in localStorage, as the lobby
does (the lobby form itself is covered by test_browser.py; the helpers are table_page.py's);
every game is short (hands of at most 2 cards) on a fast server, so the whole file stays under
a minute or two.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import re
from typing import Any

import pytest
from table_page import (
    GAME_OVER,
    MY_MOVE,
    PACE,
    boxes,
    create_table,
    dismiss_summary,
    keep_seat,
    move_once,
    my_token,
    overlap,
    play_until,
    settle,
    shot,
)

from conftest import PHONE, PHONE_LANDSCAPE, Pages, ServerProcess, served

server = served("browser-table", *PACE)


def test_a_whole_game_with_two_people_two_bots_and_a_spectator(server: ServerProcess, pages: Pages) -> None:
    ann = pages.new()
    code = create_table(ann, server.url, ["open", "basic", "basic"])
    ann.wait_for_selector("#invite-link")
    bob = pages.new()
    bob.goto(ann.input_value("#invite-link"))
    bob.fill("#join-name", "Bob")
    bob.click("#take-seat")
    bob.wait_for_selector("#hand .card", timeout=30_000)
    watcher = pages.new(viewport={"width": 1000, "height": 760})
    watcher.goto(f"{server.url}/t/{code}?watch")
    watcher.wait_for_selector(".felt .seat")
    assert watcher.query_selector("#hand") is None and watcher.query_selector(".watching-note")
    # Everyone sees four seats, the two people by name and the bots by number, me at the bottom.
    for page, me in ((ann, "Ann"), (bob, "Bob")):
        page.wait_for_selector(".seat.bottom")
        assert me in page.inner_text(".seat.bottom .seat-name")
        assert len(page.query_selector_all(".felt .seat")) == 4
    play_until([ann, bob], "document.querySelectorAll('.trick .played').length >= 2")
    shot(ann, "table-people-mid-trick.png")
    # Chat between the players and the spectator; text is shown as text.
    ann.click("#show-chat")
    ann.fill("#chat-input", "<b>good luck</b>")
    ann.press("#chat-input", "Enter")
    for page in (bob, watcher):
        page.wait_for_function("() => document.querySelector('#show-chat .badge-count')")
        page.click("#show-chat")
        page.wait_for_selector("#chat .chat-text")
        assert page.inner_text("#chat .chat-text") == "<b>good luck</b>"
        assert page.query_selector("#chat .chat-text b") is None
    # Bob mutes Ann (a tap on her name): her next line reaches the spectator, not Bob.
    bob.click("#chat .chat-name:has-text('Ann')")
    bob.wait_for_selector("#chat .chat-text", state="detached")
    ann.fill("#chat-input", "second line")
    ann.press("#chat-input", "Enter")
    watcher.wait_for_function("() => document.querySelectorAll('#chat .chat-text').length === 2")
    assert bob.query_selector_all("#chat .chat-text") == []
    bob.click("#chat button[title^='Show the messages of Ann']")  # and back: both lines are there again
    bob.wait_for_function("() => document.querySelectorAll('#chat .chat-text').length === 2")
    # A reaction tapped by Ann rises over her seat in Bob's browser.
    ann.click(".reaction-button:has([data-reaction='🔥'])")
    bob.wait_for_selector(".felt .seat:has(.seat-name:text-is('Ann')) .reaction [data-reaction='🔥']", timeout=5000)
    watcher.click("#show-chat")
    bob.click("#show-chat")
    ann.click("#show-chat")
    play_until([ann, bob], GAME_OVER, timeout_s=90)
    bob.wait_for_selector("#game-over")
    watcher.wait_for_selector("#game-over")
    # The end: places (shared ones marked), the chart, no seat still saying "Bid –", and the
    # game-over box below the table, not over it.
    for page in (ann, bob, watcher):
        assert len(page.query_selector_all("#game-over .places li")) == 4
        assert page.query_selector("#game-over .chart polyline")
        assert page.query_selector(".seat-standing") is None
        felt = boxes(page, ".felt")[0]
        over = boxes(page, "#game-over")[0]
        assert over["y"] >= felt["y"] + felt["h"] - 1, (felt, over)
    ann.wait_for_selector(".trick .played", state="detached", timeout=5000)  # the last trick went to its winner
    shot(ann, "game-over.png", full_page=True)
    totals = ann.eval_on_selector_all(".places li b", "nodes => nodes.map(n => Number(n.textContent))")
    assert totals == sorted(totals, reverse=True)
    places = ann.eval_on_selector_all(".places li .place", "nodes => nodes.map(n => n.textContent)")
    for i, total in enumerate(totals):
        shared = totals.count(total) > 1
        assert ("(shared)" in places[i]) == shared, (totals, places)
    assert ann.query_selector("#rematch") and bob.query_selector("#rematch") is None  # only the host
    ann.click("#rematch")
    # Bob did not ask: he is asked whether to play again (and stays until he says so).
    bob.wait_for_selector("#rematch-offer", timeout=30_000)
    assert bob.url.endswith("/t/" + code)
    bob.click("#rematch-accept")
    for page in (ann, bob):
        page.wait_for_url(re.compile(r"/t/(?!" + code + r")[A-Z0-9]{6}$"), timeout=30_000)
        page.wait_for_selector("#hand .card", timeout=30_000)
    assert ann.url.rsplit("/", 1)[1] == bob.url.rsplit("/", 1)[1]


@pytest.mark.parametrize(("count", "preset"), [(7, "classic"), (6, "ne-blackout"), (3, "classic")])
def test_three_to_seven_seats_fit_on_a_desktop_and_a_phone(server: ServerProcess, pages: Pages, count: int,
                                                           preset: str) -> None:
    """Every seat, its name and its standing whole and on the screen, the hand in one row and the
    bids above the fold, on a desktop, a phone and a phone on its side (6 seats: NE-Blackout's)."""
    desk = pages.new()
    code = create_table(desk, server.url, ["basic"] * (count - 1), max_size=None, preset=preset)
    desk.wait_for_selector(MY_MOVE, timeout=30_000)
    token = my_token(desk, code)
    phone = pages.new(**PHONE)
    flat = pages.new(**PHONE_LANDSCAPE)
    russian = pages.new(locale="ru-RU", **PHONE)  # longer words: "нужно ещё 7"
    for page in (phone, flat, russian):
        page.goto(server.url + "/")
        keep_seat(page, code, token, "Ann")
        page.goto(f"{server.url}/t/{code}")
        page.wait_for_selector("#hand .card")
    views = ((desk, "seven-players.png"), (phone, "seven-players-phone.png"),
             (flat, "seven-players-phone-landscape.png"), (russian, "seven-players-phone-ru.png"))
    for page, name in views:
        settle(page)
        seats = boxes(page, ".felt .seat")
        assert len(seats) == count
        width, height = page.viewport_size["width"], page.viewport_size["height"]
        for i, seat in enumerate(seats):
            assert seat["x"] >= -1 and seat["x"] + seat["w"] <= width + 1, (name, i, seat)
            for other in seats[i + 1:]:
                assert not overlap(seat, other), (name, seat, other)
        names = boxes(page, ".felt .seat-name")
        assert all(box["w"] > 30 for box in names)
        # The hand is one row inside the screen, the bid buttons above the fold.
        cards = boxes(page, "#hand .card")
        assert len(cards) == server_state(page, code, token)["hand_size"]
        assert max(c["y"] for c in cards) - min(c["y"] for c in cards) < 30, name
        assert min(c["x"] for c in cards) >= 0 and max(c["x"] + c["w"] for c in cards) <= width + 1, name
        for button in boxes(page, ".bid-button"):
            assert button["y"] + button["h"] <= height, (name, button)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    # Everybody bids (this seat the most it may: "needs 7 more" is the longest line); then every
    # seat's name and standing is on screen and whole, in its short form where the whole one
    # would not fit ("need 7"), the whole one in its title.
    desk.query_selector_all(".bid-button:not([disabled])")[-1].click()
    for page, name in views:
        page.wait_for_function(f"() => [...document.querySelectorAll('.felt .seat-standing')]"
                               f".filter(n => n.textContent.trim()).length === {count}", timeout=30_000)
        lines = page.eval_on_selector_all(".felt .seat-name, .felt .seat-standing", """nodes => nodes.map(n => {
            const r = n.getBoundingClientRect();
            return {cls: n.className, text: n.textContent, title: n.title, scroll: n.scrollWidth, client: n.clientWidth,
                    shown: r.width > 0 && r.height > 0 && getComputedStyle(n).visibility === 'visible'
                           && getComputedStyle(n).display !== 'none',
                    inside: r.left >= -1 && r.right <= innerWidth + 1 && r.top >= -1 && r.bottom <= innerHeight + 1};
        })""")
        assert len(lines) == 2 * count, (name, lines)
        for line in lines:
            assert line["shown"] and line["inside"] and line["text"].strip(), (name, line)
            assert line["scroll"] <= line["client"], (name, line)  # nothing cut off ("needs 2 …")
            if "compact" in line["cls"]:
                assert line["title"] and line["title"] != line["text"], (name, line)
        seats = boxes(page, ".felt .seat")
        for i, seat in enumerate(seats):
            for other in seats[i + 1:]:
                assert not overlap(seat, other), (name, seat, other)
        if count == 7:
            shot(page, name)
        elif page is phone:
            shot(page, {3: "three-players-phone.png", 6: "six-players-ne-blackout-phone.png"}[count])
    # A desktop has the room for the whole words.
    assert desk.query_selector(".felt .seat-standing.compact") is None
    # The mark of a deal with this player's randomness in it is a drawn icon, not a font glyph
    # some systems lack (it was an empty box).
    icon = desk.wait_for_selector("#fair-mark svg.fair-icon", timeout=5000).bounding_box()
    assert icon["width"] >= 14 and icon["height"] >= 14, icon
    # The score sheet on a phone: no sideways page, the hand column stays when the players scroll.
    dismiss_summary(phone)
    phone.click("#show-sheet")
    phone.wait_for_selector("#sheet .score-table thead th")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.evaluate("document.querySelector('.drawer').getBoundingClientRect().right") <= 391
    sticky = phone.eval_on_selector("#sheet .score-table thead th.sticky", "n => getComputedStyle(n).position")
    assert sticky == "sticky"
    assert len(phone.query_selector_all("#sheet .score-table thead th")) == count + 1
    phone.eval_on_selector("#sheet .sheet-scroll", "n => { n.scrollLeft = n.scrollWidth; }")
    frame = boxes(phone, "#sheet .sheet-scroll")[0]
    corner = boxes(phone, "#sheet .score-table thead th.sticky")[0]
    assert abs(corner["x"] - frame["x"]) <= 2, (corner, frame)
    if count == 7:
        shot(phone, "score-sheet-phone-7.png")


SERVER_STATE = """async ([code, token]) => await new Promise((resolve, reject) => {
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
    const timer = setTimeout(() => { ws.close(); reject(new Error('no state')); }, 8000);
    ws.onopen = () => ws.send(JSON.stringify({type: 'hello', table: code, token, lang: 'en'}));
    ws.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.type === 'state' && message.full) { clearTimeout(timer); ws.close(); resolve(message.changes); }
    };
})"""
"""The game as the server sends it to ``token``'s seat now (a second connection of the page)."""


def server_state(page: Any, code: str, token: str) -> dict[str, Any]:
    return dict(page.evaluate(SERVER_STATE, [code, token]))


def text_of(page: Any, selector: str) -> str:
    return " ".join(str(page.evaluate(f"() => (document.querySelector({selector!r}) || {{}}).innerText || ''")).split())


def shows(page: Any, selector: str, expected: str, timeout_ms: int = 5000) -> None:
    """Wait until ``selector``'s text (spaces collapsed) is ``expected``; fail with what it is."""
    with contextlib.suppress(Exception):
        page.wait_for_function("([selector, expected]) => ((document.querySelector(selector) || {}).innerText || '')"
                               ".split(/\\s+/).filter(Boolean).join(' ') === expected", arg=[selector, expected],
                               timeout=timeout_ms)
    assert text_of(page, selector) == expected, (selector, text_of(page, selector), expected)


def standing_words(state: dict[str, Any], seat: int) -> str:
    """A seat's standing in the hand as issue 14 words it: needs N more / made / over by N."""
    bid, tricks = state["bids"][seat], state["tricks_won"][seat]
    if bid is None:
        return "has bid" if state["has_bid"][seat] else ""
    left = state["hand_size"] - sum(state["tricks_won"])
    if tricks > bid:
        return f"over by {tricks - bid}"
    if tricks == bid:
        return "on target" if left else "made"
    return "missed" if bid - tricks > left else f"needs {bid - tricks} more"


def centre_of(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["w"] / 2, box["y"] + box["h"] / 2


# Counts every sound the page starts (Web Audio sources and <audio> elements) in window.__played.
COUNT_SOUNDS = """
window.__played = 0;
for (const kind of ['OscillatorNode', 'AudioBufferSourceNode']) {
    const proto = window[kind] && window[kind].prototype;
    if (!proto) continue;
    const start = proto.start;
    proto.start = function (...args) { window.__played += 1; return start.apply(this, args); };
}
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function (...args) { window.__played += 1; return play.apply(this, args); };
"""

# Catches a finished trick's sweep and looks at where its cards start and where the sweep takes
# them (its first and last frame, read from the running animation itself, so a busy machine
# cannot make it miss the middle): their distances to the winner's seat.
FOLLOW_SWEEP = """async () => {
    const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const middle = (n) => { const r = n.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
    const far = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);
    const sweepOf = (n) => n.getAnimations().find((a) => a.id !== 'flip' && a.playState === 'running');
    for (let i = 0; i < 600; i++) {
        const nodes = [...document.querySelectorAll('.trick .played.collecting')];
        const winner = document.querySelector('.trick .played.collecting.winner');
        if (winner && nodes.length && nodes.every(sweepOf)) {
            const target = middle(document.querySelector(`.felt .seat[data-seat="${winner.dataset.seat}"]`));
            const start = [], end = [];
            for (const node of nodes) {
                const sweep = sweepOf(node);
                sweep.pause();
                const was = sweep.currentTime;
                sweep.currentTime = 0;
                start.push(far(middle(node), target));
                sweep.currentTime = sweep.effect.getComputedTiming().duration;
                end.push(far(middle(node), target));
                sweep.currentTime = was;
                sweep.play();
            }
            return {start, end, seats: nodes.map((n) => n.dataset.seat), winner: winner.dataset.seat};
        }
        await wait(10);
    }
    return null;
}"""


# The colour of a card of each suit, as the stylesheet paints it now (a card put in the hand).
SUIT_COLOURS = """() => Object.fromEntries(['S', 'H', 'D', 'C'].map((suit) => {
    const card = document.createElement('button');
    card.className = 'card suit-' + suit;
    document.querySelector('#hand').append(card);
    const colour = getComputedStyle(card).color;
    card.remove();
    return [suit, colour];
}))"""
BLACK, RED, BLUE, GREEN = "rgb(22, 22, 22)", "rgb(198, 40, 40)", "rgb(20, 86, 200)", "rgb(27, 122, 49)"


def test_what_a_player_sees_at_a_glance(server: ServerProcess, pages: Pages) -> None:
    """Checked against the game as the server has it at each of this player's turns: the seats
    clockwise from here, the running total of the bids and its verdict, each seat's standing,
    the playable cards raised and the others dimmed, each card in front of its player, a finished
    trick sliding to its winner; sounds off until switched on; the four-colour deck."""
    page = pages.new()
    page.add_init_script(COUNT_SOUNDS)
    code = create_table(page, server.url, ["basic"] * 3, max_size=4)
    token = my_token(page, code)
    page.wait_for_selector(MY_MOVE, timeout=30_000)
    assert page.evaluate("() => (JSON.parse(localStorage.getItem('ohhell.prefs') || '{}').sound ?? false)") is False
    me = server_state(page, code, token)["seat"]
    # Seats clockwise in seat order from here at the bottom: bottom, left, top, right.
    felt = centre_of(boxes(page, ".felt")[0])
    angles = []
    for k in range(4):
        seat = centre_of(boxes(page, f'.felt .seat[data-seat="{(me + k) % 4}"]')[0])
        angles.append(math.degrees(math.atan2(seat[1] - felt[1], seat[0] - felt[0])) % 360)
    assert [round(a / 90) % 4 for a in angles] == [1, 2, 3, 0], angles  # y grows downwards: 90° is down
    verdicts: set[str] = set()
    mixed = swept = placed = 0
    for _ in range(80):
        dismiss_summary(page)
        page.wait_for_selector(f"{MY_MOVE}, #game-over", timeout=30_000)
        if page.query_selector("#game-over"):
            break
        state = server_state(page, code, token)
        if state["turn"] != me or not state["legal_actions"]:
            page.wait_for_timeout(50)
            continue
        bids = [b for b in state["bids"] if b is not None]
        if bids:
            total = f"Bids {sum(bids)} of {state['hand_size']}"
            if len(bids) == 4:
                diff = sum(bids) - state["hand_size"]
                verdict = f"under by {-diff}" if diff < 0 else f"over by {diff}" if diff > 0 else "even"
                total += " · " + verdict
                verdicts.add(verdict.split()[0])
            shows(page, "#bids-total", total)
        else:
            assert page.query_selector("#bids-total") is None
        for seat in range(4):
            shows(page, f'.felt .seat[data-seat="{seat}"] .seat-standing', standing_words(state, seat))
            if state["bids"][seat] is not None:
                numbers = f"{state['tricks_won'][seat]}/{state['bids'][seat]}"
                shows(page, f'.felt .seat[data-seat="{seat}"] .bid-tricks', numbers)
        if state["phase"] == "playing":
            legal = {a["card"] for a in state["legal_actions"]}
            page.wait_for_timeout(300)  # the cards end their lift
            cards = page.eval_on_selector_all("#hand .card", """nodes => nodes.map(n => ({
                card: n.dataset.card, cls: n.className, lift: new DOMMatrix(getComputedStyle(n).transform).m42,
                filter: getComputedStyle(n).filter}))""")
            assert {c["card"] for c in cards} == set(state["hand"])
            for c in cards:
                if c["card"] in legal:
                    assert "legal" in c["cls"] and "dim" not in c["cls"] and c["lift"] < -10, c
                else:
                    assert "dim" in c["cls"] and "legal" not in c["cls"] and c["lift"] > -6, c
                    assert "brightness" in c["filter"], c
            mixed += 0 < len(legal) < len(cards)
            # Each card of the trick lies in front of its player: nearer that seat than any other.
            seats = {s: centre_of(boxes(page, f'.felt .seat[data-seat="{s}"]')[0]) for s in range(4)}
            for seat, _card in state["current_trick"]:
                spot = centre_of(boxes(page, f'.trick .played:not(.collecting)[data-seat="{seat}"]')[0])
                nearest = min(seats, key=lambda s: math.dist(seats[s], spot))
                assert nearest == seat, (seat, spot, seats)
                placed += 1
            move_once(page)
            # The trick ends without this player: it stays a moment, then slides to its winner.
            followed = page.evaluate(FOLLOW_SWEEP)
            if followed:
                for start, end in zip(followed["start"], followed["end"], strict=True):
                    # (it ends shrunk to under half its size, about its own corner: within 45 px)
                    assert end < 45 and end < start / 2, followed
                swept += 1
        else:
            move_once(page)
        if mixed and swept >= 2 and placed >= 3 and verdicts:
            break
    assert mixed and swept >= 2 and placed >= 3 and verdicts, (mixed, swept, placed, verdicts)
    # No sound was made: they are off until switched on. Switched on, the next card is heard.
    assert page.evaluate("window.__played") == 0
    dismiss_summary(page)
    page.click("#show-settings")
    assert not page.is_checked("#pref-sound")
    page.check("#pref-sound")
    play_until([page], "window.__played > 0", timeout_s=30)
    # The four-colour deck: a card of each suit in its colour, then the usual two colours.
    page.check("#pref-four-colour")
    assert page.evaluate(SUIT_COLOURS) == {"S": BLACK, "H": RED, "D": BLUE, "C": GREEN}
    for card in page.query_selector_all("#hand .card"):  # and the hand's real cards agree
        suit = card.get_attribute("data-card")[-1]
        assert card.evaluate("n => getComputedStyle(n).color") == {"S": BLACK, "H": RED, "D": BLUE, "C": GREEN}[suit]
    page.uncheck("#pref-four-colour")
    assert page.evaluate(SUIT_COLOURS) == {"S": BLACK, "H": RED, "D": RED, "C": BLACK}


def test_a_thirteen_card_hand_on_a_phone_is_one_row(server: ServerProcess, pages: Pages) -> None:
    phone = pages.new(**PHONE)
    create_table(phone, server.url, ["basic"] * 3, max_size=None, knobs={"max_size": "river"})
    phone.wait_for_selector(".bid-button:not([disabled])", timeout=30_000)
    settle(phone)
    cards = boxes(phone, "#hand .card")
    assert len(cards) == 13
    assert max(c["y"] for c in cards) - min(c["y"] for c in cards) < 30  # one row, gently fanned
    assert min(c["x"] for c in cards) >= 0 and max(c["x"] + c["w"] for c in cards) <= 390
    steps = sorted(c["x"] for c in cards)
    assert min(b - a for a, b in itertools.pairwise(steps)) >= 14  # every corner index shows
    for button in boxes(phone, ".bid-button"):
        assert button["y"] + button["h"] <= 844
    # Sorted by suit, trump at the right end, colours alternating where the suits allow.
    hand = phone.eval_on_selector_all("#hand .card", "nodes => nodes.map(n => n.dataset.card)")
    trump = phone.evaluate("() => (document.querySelector('#trump strong') || {}).className || ''")
    suits = [card[-1] for card in hand]
    runs = [suit for i, suit in enumerate(suits) if i == 0 or suits[i - 1] != suit]
    assert len(runs) == len(set(runs)), hand  # each suit together
    if trump.startswith("suit-") and trump[-1] in runs:
        assert runs[-1] == trump[-1], (hand, trump)
    red = [suit in "HD" for suit in runs]
    if sorted(red).count(True) == 2 and red.count(False) == 2:
        assert all(a != b for a, b in itertools.pairwise(red)), runs
    labels = phone.eval_on_selector_all("#hand .card", "nodes => nodes.map(n => n.querySelector('.sr').textContent)")
    assert all(re.fullmatch(r"(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of "
                            r"(spades|hearts|diamonds|clubs)", label) for label in labels), labels
    shot(phone, "phone-13-cards.png")


def test_reload_in_the_middle_of_a_trick(server: ServerProcess, pages: Pages) -> None:
    page = pages.new()
    create_table(page, server.url, ["basic"] * 3, max_size=3)
    # This seat's turn with cards in the trick. While the last trick is still on its way to its
    # winner its cards are drawn instead of the new trick's: wait for it to go (this seat playing
    # then, with its turn come, would pass by the moment wanted).
    play_until([page], "document.querySelectorAll('.trick .played').length >= 1 && "
                       "!document.querySelector('.trick .collecting') && "
                       "document.querySelector('#hand button.card.legal')")
    cards = "nodes => nodes.map(n => n.dataset.card)"
    trick = page.eval_on_selector_all(".trick .played:not(.collecting) .card", cards)
    hand = page.eval_on_selector_all("#hand .card", cards)
    seats = page.eval_on_selector_all(".felt .seat", "nodes => nodes.map(n => n.innerText)")
    page.reload()
    page.wait_for_selector("#hand button.card.legal")
    assert page.eval_on_selector_all(".trick .played:not(.collecting) .card", cards) == trick
    assert page.eval_on_selector_all("#hand .card", cards) == hand
    assert page.eval_on_selector_all(".felt .seat", "nodes => nodes.map(n => n.innerText)") == seats


def test_keyboard_only_play_then_drag(server: ServerProcess, pages: Pages) -> None:
    page = pages.new()
    create_table(page, server.url, ["basic"] * 3)
    page.wait_for_selector(".bid-button:not([disabled])", timeout=30_000)
    # Tab to the first allowed bid and press Enter.
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('.bid-button:not([disabled])')"):
            break
    else:
        raise AssertionError("Tab never reached a bid button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand button.card.legal", timeout=30_000)
    before = len(page.query_selector_all("#hand .card"))
    # Tab into the hand (one tab stop: a playable card), walk with the arrows, play with Enter.
    # (A keyboard player's focus is put there when the turn comes: then no Tab is needed.)
    for _ in range(60):
        if page.evaluate("() => document.activeElement.matches('#hand .card')"):
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached the hand")
    label = page.evaluate("() => document.activeElement.querySelector('.sr').textContent")
    assert label.endswith(", playable"), label
    last = page.evaluate("() => document.activeElement === [...document.querySelectorAll('#hand .card')].pop()")
    away, back = ("ArrowLeft", "ArrowRight") if last else ("ArrowRight", "ArrowLeft")
    focused = "() => document.activeElement.querySelector('.sr').textContent"
    page.keyboard.press(away)  # the arrows walk along the hand and back
    assert page.evaluate(focused) != label
    page.keyboard.press(back)
    assert page.evaluate(focused) == label
    # The tab is hidden before the card goes (so the turn surely comes back while it is):
    # when the turn comes back, the title says so.
    page.evaluate("() => { Object.defineProperty(document, 'hidden', {value: true, configurable: true}); }")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelectorAll('#hand .card').length === {before - 1}")
    # While it is not this player's turn the title is not flagged. (The bots are fast here: the
    # turn may be back already, so the look at the turn and at the title is one script.)
    assert page.evaluate(f"() => Boolean(document.querySelector({json.dumps(MY_MOVE)})) || "
                         "!document.title.startsWith('●')")
    page.wait_for_selector("#hand button.card.legal", timeout=30_000)
    page.wait_for_function("() => document.title.startsWith('●')")
    page.evaluate("() => { Object.defineProperty(document, 'hidden', {value: false, configurable: true}); "
                  "document.dispatchEvent(new Event('visibilitychange')); }")
    assert not page.title().startswith("●")
    # A card dragged from the hand onto the table is played.
    card = page.query_selector("#hand button.card.legal")
    dragged = card.get_attribute("data-card")
    box = card.bounding_box()
    felt = boxes(page, ".felt")[0]
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 20)
    page.mouse.down()
    for step in range(1, 8):
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 20 - step * (box["y"] - felt["y"] - felt["h"] / 2) / 7)
    page.mouse.up()
    page.wait_for_selector(f'.trick .card[data-card="{dragged}"]', timeout=10_000)


def test_the_turn_timer_shows_warns_and_plays(server: ServerProcess, pages: Pages) -> None:
    page = pages.new()
    create_table(page, server.url, ["basic"] * 3, timer=9)
    page.wait_for_selector(".seat.bottom .timer-ring", timeout=30_000)
    started = page.evaluate("Date.now()")
    # Green while there is time (it warns in the last 5 seconds of the 9)...
    assert page.query_selector(".seat.bottom .timer-ring.warn") is None
    page.wait_for_timeout(1000)
    assert page.query_selector(".seat.bottom .timer-ring.warn") is None
    left = page.evaluate("() => Number(document.querySelector('.seat.bottom .timer-left')"
                         ".getAttribute('stroke-dashoffset'))")
    assert left > 0, left  # the ring shrinks as the time goes
    # ...and red before it runs out: still this seat's turn, the server has not moved for it.
    page.wait_for_selector(".seat.bottom .timer-ring.warn", timeout=10_000)
    assert page.evaluate("Date.now()") - started < 8500
    assert page.query_selector(".seat.bottom.acting") and page.query_selector(MY_MOVE)
    # Nobody acts: when the time is up the server moves for this seat and the game goes on.
    page.wait_for_function("() => document.querySelector('.seat.bottom .bid-tricks') && "
                           "!document.querySelector('.seat.bottom .bid-tricks').textContent.includes('–')",
                           timeout=15_000)
    if page.query_selector("#back"):  # a server that hands the seat to a stand-in: one tap to return
        page.click("#back")
        page.wait_for_selector("#back", state="detached", timeout=10_000)


def test_cards_move_and_updates_keep_focus_and_panels(server: ServerProcess, pages: Pages) -> None:
    page = pages.new()
    create_table(page, server.url, ["basic"] * 3)
    page.wait_for_selector(".bid-button:not([disabled])", timeout=30_000)
    page.click(".bid-button:not([disabled])")
    page.wait_for_selector("#hand button.card.legal", timeout=30_000)
    card = page.get_attribute("#hand button.card.legal", "data-card")
    page.click(f'#hand button.card[data-card="{card}"]')
    # The card flies from the hand to the trick (caught while it moves).
    page.wait_for_function(f"""() => {{
        const node = document.querySelector('.trick .card[data-card="{card}"]');
        return node && node.getAnimations().some(a => a.id === 'flip');
    }}""", timeout=5000)
    # Open the settings, focus a box; updates from the bots' moves keep both.
    page.click("#show-settings")
    page.focus("#pref-four-colour")
    versions = page.evaluate("() => document.querySelectorAll('.trick .played').length")
    page.wait_for_function(f"() => document.querySelectorAll('.trick .played').length !== {versions}", timeout=10_000)
    assert page.evaluate("() => document.activeElement.id") == "pref-four-colour"
    assert page.query_selector("#drawer-settings")
    page.keyboard.press("Space")  # the four-colour deck, by keyboard
    assert page.evaluate("() => document.documentElement.classList.contains('four-colour')")
    assert page.evaluate(SUIT_COLOURS) == {"S": BLACK, "H": RED, "D": BLUE, "C": GREEN}
    page.check("#pref-sound")  # sounds on: the next cards are heard (Web Audio), nothing breaks
    assert page.evaluate("() => JSON.parse(localStorage.getItem('ohhell.prefs')).sound") is True
    # Under prefers-reduced-motion nothing moves.
    still = pages.new(reduced_motion="reduce")
    create_table(still, server.url, ["basic"] * 3)
    still.wait_for_selector(".bid-button:not([disabled])", timeout=30_000)
    still.click(".bid-button:not([disabled])")
    still.wait_for_selector("#hand button.card.legal", timeout=30_000)
    card = still.get_attribute("#hand button.card.legal", "data-card")
    still.click(f'#hand button.card[data-card="{card}"]')
    assert still.evaluate("() => document.getAnimations().filter(a => a.id === 'flip').length") == 0


def test_the_hand_summary_stays_until_dismissed(server: ServerProcess, pages: Pages) -> None:
    page = pages.new()
    create_table(page, server.url, ["basic"] * 3, max_size=2)
    play_until([page], "document.querySelector('#hand-summary') || "
                       "(document.querySelector('#info-bar') || {}).textContent?.includes('Hand 2 ')")
    page.wait_for_selector("#hand-summary", timeout=10_000)
    rows = page.query_selector_all("#hand-summary tbody tr")
    assert len(rows) == 4
    assert all(row.query_selector(".verdict") for row in rows)
    # The next hand is dealt and it is this player's turn to bid: the summary is still there.
    page.wait_for_selector(".bid-button:not([disabled])", timeout=10_000)
    assert page.query_selector("#hand-summary")
    shot(page, "hand-summary.png")
    page.click("#summary-close")
    page.wait_for_selector("#hand-summary", state="detached")



def test_a_phone_in_russian_with_the_score_sheet_and_history(server: ServerProcess, pages: Pages) -> None:
    """Long words on a narrow screen: nothing overflows, and the score sheet and the history fit
    390 px with every player's column in view (the hand column stays put)."""
    from test_browser_i18n import PAGE_TEXTS, english_leftovers

    phone = pages.new(locale="ru-RU", **PHONE)
    create_table(phone, server.url, ["basic"] * 4, name="Анастасия")
    phone.wait_for_selector(".bid-button:not([disabled])", timeout=30_000)
    assert phone.evaluate("document.documentElement.lang") == "ru"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    for name in boxes(phone, ".felt .seat"):
        assert name["x"] >= -1 and name["x"] + name["w"] <= 391, name
    shot(phone, "phone-ru.png")
    play_until([phone], "document.querySelector('#hand-summary')")
    shot(phone, "phone-ru-summary.png")
    dismiss_summary(phone)
    phone.click("#show-sheet")
    phone.wait_for_selector("#sheet .score-table tbody tr")
    table = boxes(phone, "#sheet .score-table")[0]
    assert table["w"] <= 390, table  # five players and the hand column, no sideways scrolling
    shot(phone, "score-sheet-phone.png")
    phone.click("#tab-history")  # the drawer covers the table's tool bar on a phone: its own tabs
    phone.wait_for_selector("#history #replay-next")
    phone.click("#replay-next")
    phone.wait_for_selector("#history .replay-trick .card")
    assert phone.evaluate("document.querySelector('.drawer-body').scrollWidth <= 390")
    shot(phone, "history-phone.png")
    texts = phone.evaluate(PAGE_TEXTS)
    assert english_leftovers(texts, "ru") == []
