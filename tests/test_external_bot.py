"""External bots: the line-delimited JSON protocol, with scripted programs that play well, time
out, crash, answer nonsense or illegal actions — the game always finishes."""

from __future__ import annotations

import io
import json
import logging
import random
import shlex
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from ohhell import Game, preset
from ohhell.bots import make_bot
from ohhell.bots.driver import play_game
from ohhell.bots.external import ExternalBot, serve_stdio, view_from_json
from ohhell.cli import main as cli_main
from ohhell.views import seat_view

ROOT = Path(__file__).resolve().parent.parent
SIMPLE_BOT = ROOT / "examples" / "bots" / "simple_bot.py"
SHORT = preset("classic", players=4, max_size=3)  # 5 hands of 3, 2, 1, 2, 3 cards

# The start of every scripted bot: greet, then hand each act message to act(message).
PRELUDE = """
import json, sys, time
def send(message):
    sys.stdout.write(json.dumps(message) + "\\n"); sys.stdout.flush()
def serve(act):
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            send({"type": "ready", "protocol": 1, "name": "scripted"})
        elif message["type"] == "act":
            act(message)
        elif message["type"] == "bye":
            break
"""


def script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(PRELUDE + textwrap.dedent(body), encoding="utf-8")
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


def play_with(command: str, rules=SHORT, seed: int = 3, **options: object) -> tuple[ExternalBot, list[int]]:
    bot = make_bot("cmd:" + command, seed=1, **options)
    assert isinstance(bot, ExternalBot)
    try:
        state = play_game(rules, [bot] + [make_bot("random", seed=s) for s in range(rules.players - 1)], seed=seed)
    finally:
        bot.close()
    assert state.is_terminal()
    return bot, list(state.totals)


def test_example_bot_plays_whole_games_without_incident() -> None:
    bot, totals = play_with(f"{shlex.quote(sys.executable)} {shlex.quote(str(SIMPLE_BOT))}",
                            rules=preset("classic", players=4))
    assert bot.incidents == []
    assert bot.bot_name == "simple_bot.py"
    assert len(totals) == 4


def test_example_bot_beats_random_on_average() -> None:
    """The example bot bids by counting winners: over a few games it must beat random players."""
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(SIMPLE_BOT))}"
    bot = make_bot("cmd:" + command, seed=1)
    mine = others = 0
    try:
        for seed in range(4):
            state = play_game(preset("classic", players=4), [bot] + [make_bot("random", seed=s) for s in range(3)],
                              seed=seed)
            mine += state.totals[0]
            others += sum(state.totals[1:]) / 3
    finally:
        bot.close()
    assert not bot.incidents
    assert mine > others


def test_example_bot_handles_jokers_and_blind_hands() -> None:
    for rules in (preset("ne-blackout", players=5, hand_count=1), preset("devils-bridge", players=3, max_size=2)):
        bot, _totals = play_with(f"{shlex.quote(sys.executable)} {shlex.quote(str(SIMPLE_BOT))}", rules=rules)
        assert bot.incidents == []


def test_answers_by_option_by_action_object_and_by_text(tmp_path: Path) -> None:
    body = """
    count = [0]
    def act(message):
        count[0] += 1
        option = message["options"][-1]
        if count[0] % 3 == 0:
            send({"type": "action", "id": message["id"], "option": len(message["options"]) - 1})
        elif count[0] % 3 == 1:
            option.pop("seat")  # the seat may be left out
            send({"type": "action", "id": message["id"], "action": option})
        else:
            text = {"bid": "bid {seat} {bid}", "play": "play {seat} {card}"}[option["type"]].format(**option)
            send({"type": "action", "id": message["id"], "action": text})
    serve(act)
    """
    bot, _totals = play_with(script(tmp_path, "forms", body))
    assert bot.incidents == []


def test_partial_lines_stderr_noise_slow_start_and_log_messages(tmp_path: Path) -> None:
    body = """
    time.sleep(0.5)  # a slow start
    def act(message):
        sys.stderr.write("thinking hard\\n" * 50); sys.stderr.flush()
        send({"type": "log", "message": "about to answer"})
        text = json.dumps({"type": "action", "id": message["id"], "option": 0}) + "\\n"
        sys.stdout.write(text[:7]); sys.stdout.flush(); time.sleep(0.01)  # half a line, then the rest
        sys.stdout.write(text[7:]); sys.stdout.flush()
    serve(act)
    """
    bot, _totals = play_with(script(tmp_path, "noisy", body), timeout=5.0)
    assert bot.incidents == []


def test_a_bot_that_times_out_is_replaced_and_the_game_finishes(tmp_path: Path, caplog: pytest.LogCaptureFixture
                                                                ) -> None:
    body = """
    def act(message):
        time.sleep(60)
    serve(act)
    """
    with caplog.at_level(logging.WARNING, logger="ohhell.bots.external"):
        bot, totals = play_with(script(tmp_path, "sleeper", body), timeout=0.3)
    assert [incident.kind for incident in bot.incidents] == ["timeout"]
    assert "did not answer within 0.3 seconds" in bot.incidents[0].message
    assert "plays the seat for the rest of the game" in caplog.text
    assert bot.failed and len(totals) == 4


def test_a_bot_that_crashes_is_reported_with_its_error_output(tmp_path: Path) -> None:
    body = """
    def act(message):
        raise RuntimeError("my bot is broken")
    serve(act)
    """
    bot, _totals = play_with(script(tmp_path, "crasher", body))
    assert [incident.kind for incident in bot.incidents] == ["crash"]
    assert "exit code 1" in bot.incidents[0].message
    assert "my bot is broken" in bot.incidents[0].message


def test_a_bot_that_answers_nonsense_is_replaced(tmp_path: Path) -> None:
    body = """
    def act(message):
        sys.stdout.write("I think I will bid three\\n"); sys.stdout.flush()
    serve(act)
    """
    bot, _totals = play_with(script(tmp_path, "talker", body))
    assert [incident.kind for incident in bot.incidents] == ["nonsense"]
    assert "I think I will bid three" in bot.incidents[0].message


def test_a_bot_that_answers_illegal_actions_is_replaced(tmp_path: Path) -> None:
    body = """
    def act(message):
        send({"type": "action", "id": message["id"], "action": {"type": "bid", "bid": 99}})
    serve(act)
    """
    bot, _totals = play_with(script(tmp_path, "cheater", body))
    assert [incident.kind for incident in bot.incidents] == ["illegal"]
    assert "bid 0 99" in bot.incidents[0].message


def test_protocol_mistakes_are_reported(tmp_path: Path) -> None:
    wrong_id = """
    def act(message):
        send({"type": "action", "id": message["id"] + 1, "option": 0})
    serve(act)
    """
    bot, _totals = play_with(script(tmp_path, "wrong_id", wrong_id))
    assert [incident.kind for incident in bot.incidents] == ["protocol"]
    no_greeting = """
    for line in sys.stdin:
        pass
    """
    bot, _totals = play_with(script(tmp_path, "mute", no_greeting), start_timeout=0.5)
    assert [incident.kind for incident in bot.incidents] == ["start"]


def test_a_program_that_does_not_exist_is_reported() -> None:
    bot, _totals = play_with("/nonexistent/bot --fast")
    assert [incident.kind for incident in bot.incidents] == ["start"]
    assert "could not be started" in bot.incidents[0].message


def test_after_a_failure_the_next_game_starts_the_program_again(tmp_path: Path) -> None:
    body = """
    def act(message):
        if message["view"]["hand_index"] == 1:
            sys.exit(3)
        send({"type": "action", "id": message["id"], "option": 0})
    serve(act)
    """
    bot = make_bot("cmd:" + script(tmp_path, "flaky", body), seed=1)
    assert isinstance(bot, ExternalBot)
    try:
        for seed in (1, 2):
            play_game(SHORT, [bot] + [make_bot("random", seed=s) for s in range(3)], seed=seed)
    finally:
        bot.close()
    assert [incident.kind for incident in bot.incidents] == ["crash", "crash"]


def test_bid_changes_are_asked_only_of_bots_that_want_them(tmp_path: Path) -> None:
    body = """
    def act(message):
        if message["kind"] == "change_bid":
            send({"type": "action", "id": message["id"], "action": None})
        else:
            send({"type": "action", "id": message["id"], "option": 0})
    serve(act)
    """
    path = tmp_path / "changer.py"
    path.write_text((PRELUDE + textwrap.dedent(body)).replace('"name": "scripted"', '"bid_changes": True'),
                    encoding="utf-8")
    bot, _totals = play_with(f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}")
    assert bot.wants_bid_changes and bot.incidents == []


def test_our_bots_speak_the_protocol_through_bot_stdio() -> None:
    command = f"{shlex.quote(sys.executable)} -m ohhell.cli bot-stdio --bot random"
    bot, _totals = play_with(command, rules=preset("boerenbridge", players=4, hand_count=1))
    assert bot.incidents == [] and bot.bot_name == "ohhell random"


def test_bot_stdio_command_answers_hello_and_act() -> None:
    state = Game(SHORT).new_initial_state(first_dealer=0)
    rng = random.Random(2)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    view = seat_view(state, 1)
    messages = [{"type": "hello", "protocol": 1, "seat": 1, "rules": SHORT.to_json(), "seed": 4},
                {"type": "act", "id": 1, "kind": "choose", "view": view.to_json(), "options": []},
                {"type": "bye"}]
    result = CliRunner().invoke(cli_main, ["bot-stdio", "--bot", "random"],
                                input="".join(json.dumps(m) + "\n" for m in messages))
    assert result.exit_code == 0, result.output
    ready, action = (json.loads(line) for line in result.output.splitlines())
    assert ready["type"] == "ready" and ready["protocol"] == 1
    assert action["id"] == 1 and action["action"]["type"] == "bid" and action["action"]["seat"] == 1


def test_serve_stdio_reports_a_message_it_cannot_handle() -> None:
    errors = io.StringIO()
    code = serve_stdio(lambda seed: make_bot("random", seed=seed), "random",
                       io.StringIO('{"type": "act", "id": 1}\n'), io.StringIO(), errors)
    assert code == 2 and "before hello" in errors.getvalue()


@pytest.mark.parametrize("name,players", [("classic", 4), ("boerenbridge", 4), ("ne-blackout", 5),
                                          ("devils-bridge", 3), ("jokers", 3), ("7-truf", 4)])
def test_view_json_round_trip(name: str, players: int) -> None:
    rules = preset(name, players=players)
    state = Game(rules).new_initial_state()
    rng = random.Random(11)
    for step in range(400):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        if step % 7 == 0:
            for seat in range(players):
                view = seat_view(state, seat)
                assert view_from_json(json.loads(json.dumps(view.to_json()))) == view
        seat = state.turn if state.turn is not None else state.actors()[0]
        state.apply(rng.choice([a for a in state.legal_actions(seat) if getattr(a, "seat", seat) == seat]))


def test_view_from_json_refuses_a_malformed_view() -> None:
    with pytest.raises(ValueError, match="not a seat view"):
        view_from_json({"rules": {"preset": "classic", "players": 4}})


def test_the_arena_plays_an_external_bot_and_flags_the_games_a_fallback_finished(tmp_path: Path) -> None:
    good = f"{shlex.quote(sys.executable)} {shlex.quote(str(SIMPLE_BOT))}"
    talker = script(tmp_path, "talker", """
    def act(message):
        sys.stdout.write("bid three, please\\n"); sys.stdout.flush()
    serve(act)
    """)
    runner = CliRunner()
    common = ["--bot", "random", "--bot", "random", "--set", "max_size=2", "--games", "1", "--no-progress"]
    fine = runner.invoke(cli_main, ["arena", "--bot", "cmd:" + good, *common, "--json"])
    assert fine.exit_code == 0, fine.output
    data = json.loads(fine.output)
    assert data["bots"][0]["bot"] == "cmd:" + good and data["bots"][0]["failed_games"] == 0
    assert data["bots"][0]["games"] == 3
    broken = runner.invoke(cli_main, ["arena", "--bot", "cmd:" + talker, *common, "--json"])
    assert broken.exit_code == 1, broken.output  # it failed in every game: its figures are not its own
    data = json.loads(broken.output[broken.output.index("{"):].splitlines()[0])
    assert data["bots"][0]["failed_games"] == 3 and data["bots"][1]["failed_games"] == 0
    text = runner.invoke(cli_main, ["arena", "--bot", "cmd:" + talker, *common])
    assert text.exit_code == 1
    assert "failed in every game" in text.output
    assert "failed in 3 games of 3; a fallback bot finished them" in text.output


def test_the_first_lines_of_a_crash_are_kept_as_well_as_the_last(tmp_path: Path) -> None:
    """Node prints the error first and a long stack after it: both ends reach the report."""
    body = """
    def act(message):
        sys.stderr.write("/home/me/bot.js:10\\n    throw new Error('no card to play');\\n    ^\\n\\n")
        sys.stderr.write("Error: no card to play\\n")
        for frame in range(60):
            sys.stderr.write(f"    at frame{frame} (node:internal/modules:{frame}:1)\\n")
        sys.stderr.write("\\nNode.js v20.20.2\\n")
        sys.stderr.flush()
        sys.exit(1)
    serve(act)
    """
    bot, _totals = play_with(script(tmp_path, "node_like", body))
    [incident] = bot.incidents
    assert incident.kind == "crash"
    assert "Error: no card to play" in incident.message
    assert "Node.js v20.20.2" in incident.message and "frame59" in incident.message
    assert "frame30" not in incident.message  # the middle of the stack is left out
    assert incident.stderr[4] == "Error: no card to play"


def test_a_message_of_unknown_type_is_ignored_with_a_warning(tmp_path: Path,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    body = """
    def act(message):
        send({"type": "thinking", "progress": 0.5})
        send({"type": "action", "id": message["id"], "option": 0})
    serve(act)
    """
    with caplog.at_level(logging.WARNING, logger="ohhell.bots.external"):
        bot, _totals = play_with(script(tmp_path, "chatty", body))
    assert bot.incidents == []
    assert "unknown type" in caplog.text and "thinking" in caplog.text


def test_hosts_are_told_when_the_fallback_takes_over(tmp_path: Path) -> None:
    body = """
    def act(message):
        sys.exit(4)
    serve(act)
    """
    told: list[object] = []
    bot, _totals = play_with(script(tmp_path, "quitter", body), on_fallback=told.append)
    assert told == bot.incidents and bot.failed
    assert told[0].kind == "crash" and told[0].seat == 0


def test_a_listener_that_fails_does_not_break_the_game(tmp_path: Path) -> None:
    body = """
    def act(message):
        sys.exit(4)
    serve(act)
    """

    def broken(_incident: object) -> None:
        raise RuntimeError("listener bug")

    bot, totals = play_with(script(tmp_path, "quitter", body), on_fallback=broken)
    assert bot.failed and len(totals) == 4


def test_check_command_refuses_missing_programs(tmp_path: Path) -> None:
    from ohhell.bots.external import check_command

    check_command(f"cmd:{shlex.quote(sys.executable)} bot.py --level 3")
    check_command("cmd:python3 -c pass" if __import__("shutil").which("python3") else f"cmd:{sys.executable}")
    with pytest.raises(ValueError, match="does not exist"):
        check_command("cmd:/nonexistent/bot --fast")
    with pytest.raises(ValueError, match="not on the PATH"):
        check_command("cmd:no-such-program-ohhell-bot")
    script_file = tmp_path / "bot.py"
    script_file.write_text("print()\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not an executable file"):
        check_command(f"cmd:{script_file}")
    with pytest.raises(ValueError, match="empty"):
        check_command("cmd:  ")


def test_the_server_refuses_a_missing_bot_program_at_start() -> None:
    from ohhell.server.cli import serve

    result = CliRunner().invoke(serve, ["--bot-command", "mine=cmd:/nonexistent/bot --fast", "--port", "1"])
    assert result.exit_code == 2
    assert "mine" in result.output and "/nonexistent/bot does not exist" in result.output


def test_the_server_passes_its_bot_timeout_to_external_bots(tmp_path: Path) -> None:
    from ohhell.server.config import ServerConfig
    from ohhell.server.live.manager import TableManager

    command = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(SIMPLE_BOT))}"
    manager = TableManager(store=None, config=ServerConfig(bot_commands={"mine": command}, bot_timeout=2.5))  # type: ignore[arg-type]
    bot = manager.new_bot("mine")
    assert isinstance(bot, ExternalBot) and bot.timeout == 2.5
    default = TableManager(store=None, config=ServerConfig(bot_commands={"mine": command}))  # type: ignore[arg-type]
    assert default.new_bot("mine").timeout == 10.0
    assert not isinstance(manager.new_bot("random"), ExternalBot)


@pytest.mark.parametrize(("arguments", "timeout"), [(["--bot-timeout", "2.5"], 2.5), ([], None)])
def test_the_serve_command_puts_its_bot_timeout_flag_in_the_server_config(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, arguments: list[str], timeout: float | None) -> None:
    import uvicorn

    import ohhell.server.app
    from ohhell.server.cli import serve
    from ohhell.server.config import ServerConfig

    configs: list[ServerConfig] = []
    served: list[object] = []

    def create_app(config: ServerConfig) -> object:
        configs.append(config)
        return "the app"

    monkeypatch.setattr(ohhell.server.app, "create_app", create_app)
    monkeypatch.setattr(ohhell.server.app, "tune_gc", lambda: None)
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.append(app))
    command = f"mine=cmd:{shlex.quote(sys.executable)} {shlex.quote(str(SIMPLE_BOT))}"
    result = CliRunner().invoke(serve, ["--database", f"sqlite:///{tmp_path / 'db.sqlite'}", "--port", "1",
                                        "--bot-command", command, *arguments])
    assert result.exit_code == 0, result.output
    assert served == ["the app"]
    assert [config.bot_timeout for config in configs] == [timeout]
    assert configs[0].bot_commands == {"mine": command.partition("=")[2]}


@pytest.mark.parametrize("value", ["0", "-1", "soon"])
def test_the_serve_command_refuses_a_bot_timeout_that_is_not_a_positive_number(value: str) -> None:
    from ohhell.server.cli import serve

    result = CliRunner().invoke(serve, ["--bot-timeout", value, "--port", "1"])
    assert result.exit_code == 2
    assert "--bot-timeout" in result.output
