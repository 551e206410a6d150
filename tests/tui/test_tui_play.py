"""``ohhell play`` driven headlessly with key presses and clicks (Textual's pilot)."""

from __future__ import annotations

import json
import time

from tui_helpers import log_text, plain, run, static_text, type_number, wait_until

from ohhell.actions import Bid, Deal, Play
from ohhell.cards import parse_card, parse_cards
from ohhell.game import Game
from ohhell.record import state_from_record
from ohhell.rules import preset
from ohhell.tui.play_app import ExportScreen, GameOverScreen, GameScreen, HandOverScreen, PlayApp
from ohhell.tui.session import SAVE_FORMAT, PlaySession, TableOptions
from ohhell.tui.widgets import ChoiceBar, HandWidget

SIZE = (120, 40)


def new_session(tmp_path, players=3, max_size=2, seed=1, **options) -> PlaySession:
    rules = preset("classic", players=players, max_size=max_size)
    table = TableOptions(delay=0.0, window=0.0, **options)
    return PlaySession.new(rules, bots="random", seed=seed, options=table, save_path=tmp_path / "game.json")


def game_screen(app) -> GameScreen:
    return next(screen for screen in app.screen_stack if isinstance(screen, GameScreen))


def ready(app) -> bool:
    """The person must act, or a hand/game summary is showing."""
    if isinstance(app.screen, (HandOverScreen, GameOverScreen)):
        return True
    if not isinstance(app.screen, GameScreen):
        return False
    screen = app.screen
    return screen._busy is None and screen._timer is None and app.session.human_turn() is not None


async def act(pilot, app) -> None:
    """Make the person's move with the keyboard: the first legal bid, or the selected card."""
    session = app.session
    turn = session.human_turn()
    if turn == "bid":
        legal = [a.bid for a in session.view().legal_actions if isinstance(a, Bid)]
        await type_number(pilot, legal[0])
    elif turn == "play":
        await pilot.press("enter")
    await wait_until(pilot, lambda: ready(app), what="the person's turn")


def test_play_a_whole_hand_against_bots(tmp_path):
    session = new_session(tmp_path, players=4, max_size=3, seed=11)
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            screen = game_screen(app)
            # The hand on screen is the person's hand, sorted by suit.
            shown = plain(screen.query_one(HandWidget).render())
            for card in session.view().hand:
                from ohhell.tui.render import card_label
                assert card_label(card) in shown
            while not isinstance(app.screen, HandOverScreen):
                await act(pilot, app)
            result = session.state.finished_hands[0]
            assert sum(result.tricks) == result.size == 3
            assert result.bids[0] is not None
            log = log_text(game_screen(app))
            assert "You bid" in log and "You play" in log and "wins the trick" in log
            await pilot.press("enter")
            await wait_until(pilot, lambda: ready(app))
            assert isinstance(app.screen, GameScreen)
            assert session.state.hand_index == 1
            assert "Hand 2" in log_text(app.screen)

    run(body())


def _seed_where_the_person_deals_under_the_hook(tmp_path) -> tuple[int, int]:
    """A seed whose first hand the person deals, with a bid the hook forbids when it is their turn."""
    for seed in range(300):
        session = new_session(tmp_path, players=3, max_size=3, seed=seed)
        session.advance_chance()
        if session.state.dealer != 0:
            continue
        while session.human_turn() is None:
            task = session.next_bot_task()
            session.apply_bot(task, session.run_task(task))
        forbidden = session.view().forbidden_bid
        if forbidden is not None:
            return seed, forbidden
    raise AssertionError("no seed found")


def test_the_dealer_is_refused_the_hooked_bid(tmp_path):
    seed, forbidden = _seed_where_the_person_deals_under_the_hook(tmp_path)
    session = new_session(tmp_path, players=3, max_size=3, seed=seed)
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            assert session.state.dealer == 0 and session.human_turn() == "bid"
            # The dealer sees the forbidden bid: in the prompt and struck out in the bid bar.
            assert f"may not bid {forbidden}" in static_text(app, "#prompt")
            bar = app.screen.query_one(ChoiceBar)
            assert [c.value for c in bar.choices if not c.enabled] == [forbidden]
            await type_number(pilot, forbidden)
            assert session.state.bids[0] is None
            prompt = static_text(app, "#prompt")
            assert "✗" in prompt and f"As the dealer you may not bid {forbidden}" in prompt
            # The cursor never rests on the forbidden bid: ←/→ step over it.
            assert bar.selected() != forbidden
            for _ in range(len(bar.choices) + 1):
                await pilot.press("right")
                assert bar.selected() != forbidden
            await pilot.press("home")
            assert bar.selected() == (0 if forbidden != 0 else 1)
            allowed = 0 if forbidden != 0 else 1
            await type_number(pilot, allowed)
            assert session.state.bids[0] == allowed

    run(body())


def test_quit_saves_and_resume_goes_on(tmp_path):
    session = new_session(tmp_path, players=4, max_size=3, seed=5)
    app = PlayApp(session)

    async def first():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            await act(pilot, app)
            await act(pilot, app)
            # Esc asks first: a second Esc (meant for a dialog) answers no and the game goes on.
            await pilot.press("escape")
            await pilot.press("escape")
            assert isinstance(app.screen, GameScreen) and app.return_value is None
            await pilot.press("escape", "y")

    run(first())
    path = tmp_path / "game.json"
    assert app.return_value == str(path)
    saved = json.loads(path.read_text())
    assert saved["format"] == SAVE_FORMAT and saved["seed"] == 5 and saved["bots"] == "random"
    before = session.record()
    assert saved["record"] == before
    state_from_record(saved["record"])  # a valid ohhell/1 record

    resumed = PlaySession.load(path, options=TableOptions(delay=0.0, window=0.0))
    assert resumed.record() == before
    app2 = PlayApp(resumed)

    async def second():
        async with app2.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app2))
            assert "Game resumed" in log_text(game_screen(app2))
            hand = app2.screen.query_one(HandWidget)
            assert hand.cards == resumed.view().hand and hand.cards
            while not isinstance(app2.screen, HandOverScreen):
                await act(pilot, app2)
            assert len(resumed.state.finished_hands) == 1

    run(second())


def test_bid_change_window(tmp_path):
    session = new_session(tmp_path, players=3, max_size=3, seed=2)
    session.options.window = 30.0  # the bots wait: plenty of time to change the bid
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            first = next(a.bid for a in session.view().legal_actions if isinstance(a, Bid))
            await type_number(pilot, first)
            assert session.human_may_change_bid()
            assert "You may still change it" in static_text(app, "#prompt")
            changes = [a.bid for a in session.view().legal_actions if isinstance(a, Bid)]
            await type_number(pilot, changes[-1])
            assert session.state.bids[0] == changes[-1] != first
            assert log_text(app.screen).count("You bid") == 2

    run(body())


def test_mouse_selects_and_plays_a_card(tmp_path):
    session = new_session(tmp_path, players=3, max_size=3, seed=4)
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            while session.human_turn() != "play":
                await act(pilot, app)
            hand = app.screen.query_one(HandWidget)
            legal = [a.card for a in session.view().legal_actions if isinstance(a, Play)]
            assert len(legal) > 1
            # A click selects a card that is not selected yet; a click on the selected one plays it.
            target = next(card for card in legal if card != hand.selected())
            index = hand.cards.index(target)
            start = next(start for start, _end, i in hand._spans if i == index)
            await pilot.click(HandWidget, offset=(start + 2, 1))
            assert hand.selected() == target and target in session.view().hand
            await pilot.click(HandWidget, offset=(start + 2, 1))
            assert target not in session.view().hand
            assert Play(0, target) in session.state.history

    run(body())


def test_rank_keys_pick_a_card_and_take_back(tmp_path):
    session = new_session(tmp_path, players=3, max_size=3, seed=8, take_back=True)
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            while session.human_turn() != "play":
                await act(pilot, app)
            legal = [a.card for a in session.view().legal_actions if isinstance(a, Play)]
            card = legal[-1]
            from ohhell.tui.render import rank_label
            await pilot.press(rank_label(card % 13).lower()[0] if card % 13 != 8 else "t")
            hand = app.screen.query_one(HandWidget)
            assert hand.selected() % 13 == card % 13
            chosen = hand.selected()
            await pilot.press("enter")
            await wait_until(pilot, lambda: ready(app))
            assert chosen not in session.view().hand
            assert isinstance(app.screen, GameScreen) and session.can_take_back()
            await pilot.press("u")
            assert chosen in session.view().hand
            assert "took back" in log_text(app.screen)
            assert session.human_turn() == "play"

    run(body())


def _claim_session(tmp_path, hand_of_person: str) -> PlaySession:
    rules = preset("classic", players=3, max_size=2)
    state = Game(rules).new_initial_state(first_dealer=2)
    others = {"AS AH": ("QS 2H", "3H KS"), "QS 2H": ("AS AH", "3H KS")}[hand_of_person]
    hands = tuple(tuple(parse_cards(text)) for text in (hand_of_person, *others))
    state.apply(Deal(hands, parse_card("5H")))
    for seat, bid in ((0, 2), (1, 1), (2, 0)):
        state.apply(Bid(seat, bid))
    return PlaySession(rules, bots="random", seed=1, bot_seed=1, state=state,
                       options=TableOptions(delay=0.0, window=0.0), save_path=tmp_path / "claim.json")


def test_claim_accepted_plays_out_the_hand(tmp_path):
    session = _claim_session(tmp_path, "AS AH")
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            await pilot.press("c")
            await wait_until(pilot, lambda: isinstance(app.screen, HandOverScreen), what="the hand to end")
            assert session.state.finished_hands[0].tricks == (2, 0, 0)
            assert "accepted" in log_text(game_screen(app))

    run(body())


def test_claim_refused_changes_nothing(tmp_path):
    session = _claim_session(tmp_path, "QS 2H")
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            history = list(session.state.history)
            await pilot.press("c")
            assert "Claim refused" in static_text(app, "#prompt")
            assert session.state.history == history and not session.claiming

    run(body())


def test_hint_speed_and_a_whole_game_with_chart_and_export(tmp_path):
    # One hand of one card: the whole game in a few keys.
    session = new_session(tmp_path, players=3, max_size=1, seed=3)
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            await pilot.press("h")
            await wait_until(pilot, lambda: "Hint:" in static_text(app, "#prompt"), what="the hint")
            delay = session.options.delay
            await pilot.press("s")
            assert session.options.delay != delay
            session.options.delay = 0.0
            while not isinstance(app.screen, GameOverScreen):
                if isinstance(app.screen, HandOverScreen):
                    await pilot.press("enter")
                    await wait_until(pilot, lambda: ready(app))
                else:
                    await act(pilot, app)
            final = static_text(app, "#final")
            assert "The game is over" in final and "━━" in final
            winners = session.state.winners()
            assert winners and all(session.names[seat] in final for seat in winners)
            await pilot.press("x")
            assert isinstance(app.screen, ExportScreen)
            target = tmp_path / "exported.json"
            app.screen.query_one("#path").value = str(target)
            await pilot.press("enter")
            await pilot.pause()
            record = json.loads(target.read_text())
            assert state_from_record(record).is_terminal()

    run(body())


def test_devils_bridge_blind_hand(tmp_path):
    # One hand of one card, held to the forehead: you see the others' cards, not yours.
    rules = preset("devils-bridge", players=3, max_size=1)
    session = PlaySession.new(rules, bots="random", seed=6, options=TableOptions(delay=0.0, window=0.0),
                              save_path=tmp_path / "g.json")
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            view = session.view()
            assert view.blind
            assert "??" in plain(app.screen.query_one(HandWidget).render())
            table = static_text(app, "#table")
            from ohhell.tui.render import card_label
            for seat, cards in view.visible_hands.items():
                assert session.names[seat] in table and card_label(cards[0]) in table
            while not isinstance(app.screen, (HandOverScreen, GameOverScreen)):
                await act(pilot, app)
            assert session.state.finished_hands[0].bids[0] is not None

    run(body())


def test_the_bots_go_on_after_the_keys_screen(tmp_path, monkeypatch):
    session = new_session(tmp_path, players=4, max_size=3, seed=11)
    thinking = session.run_task

    def slow(task):  # a bot that thinks a while, as the strong bot does
        time.sleep(0.2)
        return thinking(task)

    monkeypatch.setattr(session, "run_task", slow)
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            screen = app.screen
            if session.human_turn() == "bid":
                await type_number(pilot, next(a.bid for a in session.view().legal_actions if isinstance(a, Bid)))
            else:
                await pilot.press("enter")
            await wait_until(pilot, lambda: screen._busy is not None and screen._busy.kind == "choose",
                             what="a bot to think")
            history = len(session.state.history)
            await pilot.press("question_mark")  # the keys, while the bot thinks
            assert "Keys" in plain(app.screen.query_one("Static").content)
            await wait_until(pilot, lambda: len(session.state.history) > history, what="the bot's move")
            await pilot.press("escape")
            await wait_until(pilot, lambda: ready(app), what="the bots to go on")
            await pilot.press("r")
            assert "The rules of this table" in plain(app.screen.query_one("Static").content)
            await pilot.press("escape")
            assert isinstance(app.screen, GameScreen)

    run(body())


def test_the_engine_names_cards_as_the_table_shows_them(tmp_path):
    from ohhell.cards import message_card
    from ohhell.i18n import cards_shown_as_seen

    app = PlayApp(new_session(tmp_path))

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            assert cards_shown_as_seen() and message_card(parse_card("TH")) == "10♥"

    run(body())
    assert not cards_shown_as_seen() and message_card(parse_card("TH")) == "TH"


# ---------------------------------------------------------------------- issue 18: as a player finds it


def test_a_rank_key_starts_again_from_the_first_card_of_its_rank():
    from ohhell.tui.widgets import HandWidget

    king_spades, king_hearts, two = parse_card("KS"), parse_card("KH"), parse_card("2D")
    hand = HandWidget()
    hand.set_hand([king_spades, king_hearts, two], [king_spades, king_hearts, two], True)
    assert hand.select_rank(11) and hand.selected() == king_spades
    assert hand.select_rank(11) and hand.selected() == king_hearts  # again: the next king
    # A later turn (a card has gone): the cursor rests on K♠, and one k stays there.
    hand.set_hand([king_spades, king_hearts], [king_spades, king_hearts], True)
    hand.move_to(-1)
    assert hand.selected() == king_spades
    hand.select_rank(11)
    assert hand.selected() == king_spades
    # Moved away with the arrows and back: k starts from the first king again.
    hand.select_rank(11)
    assert hand.selected() == king_hearts
    hand.move(-1)
    hand.select_rank(11)
    assert hand.selected() == king_spades


def _position(tmp_path, hands: tuple[str, str, str], first_dealer: int = 0, **options) -> PlaySession:
    """Three players, two cards each, bids 1 (seat 1), 0 (seat 2), 0 (you, the dealer)."""
    rules = preset("classic", players=3, max_size=2)
    state = Game(rules).new_initial_state(first_dealer=first_dealer)
    state.apply(Deal(tuple(tuple(parse_cards(text)) for text in hands), parse_card("5D")))
    for seat, bid in ((1, 1), (2, 0), (0, 0)):
        state.apply(Bid(seat, bid))
    return PlaySession(rules, bots="random", seed=1, bot_seed=1, state=state,
                       options=TableOptions(delay=0.0, window=0.0, **options), save_path=tmp_path / "p.json")


def test_a_card_that_does_not_follow_suit_is_refused_in_the_players_words(tmp_path):
    session = _position(tmp_path, ("AS 2H", "KS 3H", "QS 4H"))
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            view = session.view()
            suit = view.trick_suit
            assert suit is not None
            wrong = next(card for card in view.hand if card // 13 != suit)
            app.screen._play_card(wrong)
            prompt = static_text(app, "#prompt")
            assert f"You must follow {'♠♥♦♣'[suit]}." in prompt
            assert "seat" not in prompt and "but played" not in prompt
            assert wrong in session.view().hand
            # Take-back is off at this table: u says so (and its key is not offered).
            await pilot.press("u")
            assert "Take-back is off at this table" in static_text(app, "#prompt")
            assert "Take back" not in plain(app.screen.query_one("KeyBar").render())
            assert "You need 1 more trick." not in static_text(app, "#prompt")  # you bid 0

    run(body())


def test_esc_asks_before_quitting_and_a_double_esc_from_a_dialog_loses_nothing(tmp_path):
    from ohhell.tui.dialogs import ConfirmScreen

    session = new_session(tmp_path, players=3, max_size=2, seed=2)
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            await pilot.press("question_mark")
            await pilot.press("escape", "escape")  # closes the keys, then asks
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("n")
            assert isinstance(app.screen, GameScreen) and app.return_value is None
            await pilot.press("ctrl+q")  # quits at once
            await pilot.pause()
            assert app.return_value == str(tmp_path / "game.json")

    run(body())


def test_the_keys_dialog_keeps_long_descriptions_in_their_column():
    from ohhell.i18n import set_language
    from ohhell.tui.play_app import help_lines
    from ohhell.tui.widgets import keys_table

    for language in ("en", "ru"):
        set_language(language)
        try:
            lines = plain(keys_table(help_lines()), width=60).splitlines()
            key_width = max(len(keys) for keys, _meaning in help_lines())
            for line in lines:
                if line.strip() and not line[:key_width].strip():
                    continue  # a wrapped description: it starts in the description's column
                assert line[:key_width].strip() in {keys for keys, _meaning in help_lines()}, line
            if language == "ru":
                assert "т к д в 0 9 … 2" in "\n".join(lines)  # the keys the prompt names
        finally:
            set_language("en")


def test_the_hint_selects_its_card_and_the_scores_of_earlier_hands(tmp_path):
    from ohhell.tui.play_app import ScoresScreen

    session = new_session(tmp_path, players=3, max_size=2, seed=5)
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            await pilot.press("p")
            assert isinstance(app.screen, ScoresScreen)
            assert "No hand is finished yet." in "\n".join(plain(part.content) for part in app.screen.query("Static"))
            await pilot.press("escape")
            while not session.state.finished_hands:
                if isinstance(app.screen, HandOverScreen):
                    break
                if session.human_turn() == "play":
                    await pilot.press("h")
                    await wait_until(pilot, lambda: "Hint:" in static_text(app, "#prompt"), what="the hint")
                    hinted = app.screen.query_one(HandWidget).selected()
                    assert card_label_of(hinted) in static_text(app, "#prompt").split("Hint:")[1]
                    await pilot.press("enter")
                    await wait_until(pilot, lambda: ready(app))
                else:
                    await pilot.press("h")
                    await wait_until(pilot, lambda: "Hint:" in static_text(app, "#prompt"), what="the hint")
                    bar = app.screen.query_one(ChoiceBar)
                    assert f"bid {bar.selected()}" in static_text(app, "#prompt")
                    await pilot.press("enter")
                    await wait_until(pilot, lambda: ready(app))
            if isinstance(app.screen, HandOverScreen):
                await pilot.press("enter")
                await wait_until(pilot, lambda: ready(app))
            await pilot.press("p")
            sheet = "\n".join(plain(part.content) for part in app.screen.query("Static"))  # headings, hands
            first = session.state.finished_hands[0]
            assert "Score sheet" in sheet and all(name in sheet for name in session.names)
            assert f"{first.bids[0]}/{first.tricks[0]} {first.totals[0]}" in sheet

    run(body())


def card_label_of(card):
    from ohhell.tui.render import card_label

    return card_label(card)


def test_needs_column_and_prompt(tmp_path):
    # You lead after the dealer (seat 2) and bid 2.
    rules = preset("classic", players=3, max_size=2)
    state = Game(rules).new_initial_state(first_dealer=2)
    state.apply(Deal(tuple(tuple(parse_cards(text)) for text in ("AS AH", "KS 3H", "QS 4H")), parse_card("5D")))
    for seat, bid in ((0, 2), (1, 1), (2, 0)):
        state.apply(Bid(seat, bid))
    session = PlaySession(rules, bots="random", seed=1, bot_seed=1, state=state,
                          options=TableOptions(delay=0.0, window=0.0), save_path=tmp_path / "n.json")
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            assert "You need 2 more tricks." in static_text(app, "#prompt")
            players = static_text(app, "#players")
            assert "Needs" in players
            row = next(line for line in players.splitlines() if "You" in line)
            assert row.split()[-2:] == ["2", "0"]  # needs 2, total 0

    run(body())


def test_secret_bids_are_revealed_in_the_log(tmp_path):
    rules = preset("boerenbridge", players=4, max_size=2)
    session = PlaySession.new(rules, bots="random", seed=4, options=TableOptions(delay=0.0, window=0.0),
                              save_path=tmp_path / "b.json")
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            while session.view().phase.name == "BIDDING":
                await act(pilot, app)
            log = log_text(game_screen(app))
            bids = session.state.bids
            revealed = ", ".join(f"{name} {bid}" for name, bid in zip(session.names, bids, strict=True))
            assert f"Bids revealed: {revealed}." in log

    run(body())


def test_a_hand_of_bust_with_six_players_is_played_to_the_end(tmp_path):
    # Bust's second pack: 78 cards, the small ones twice; the person plays by the keyboard.
    rules = preset("bust", players=6, schedule="explicit", hands=[[6, "turn-up"]])
    session = PlaySession.new(rules, bots="random", seed=5, options=TableOptions(delay=0.0, window=0.0),
                              save_path=tmp_path / "game.json")
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: ready(app))
            while not isinstance(app.screen, (HandOverScreen, GameOverScreen)):
                await act(pilot, app)
            result = session.state.finished_hands[0]
            assert sum(result.tricks) == result.size == 6

    run(body())


def test_both_copies_of_a_card_held_are_playable_in_the_hand_widget():
    from ohhell.cards import FIRST_COPY

    widget = HandWidget()
    two = parse_card("2S")
    widget.set_hand([two, FIRST_COPY, parse_card("AH")], [two], active=True)
    assert widget.legal == {two, FIRST_COPY}
