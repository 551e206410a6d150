"""The one dispatcher of what people ask of a table (``ohhell.server.live.commands``): the same
for a connection of this process and one of another process (its request forwarded)."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from ohhell.server.live.commands import COMMANDS, Joined, perform
from ohhell.server.live.room import TableRoom
from ohhell.server.live.subscriber import Asker
from ohhell.server.wire.protocol import ClientMessage, ProtocolError


class Recorder:
    """Records each call a command makes of its table."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    async def act(self, conn: Any, message: ClientMessage) -> None:
        self.calls.append(("act", message.data["action"]))

    async def say(self, conn: Any, text: str, message_id: Any = None) -> None:
        self.calls.append(("say", text, message_id))

    def react(self, conn: Any, reaction: str, message_id: Any = None) -> None:
        self.calls.append(("react", reaction))

    async def start(self, conn: Any, message_id: Any = None) -> None:
        self.calls.append(("start",))

    async def back(self, conn: Any, message_id: Any = None) -> None:
        self.calls.append(("back",))

    async def rematch(self, conn: Any, message_id: Any = None) -> None:
        self.calls.append(("rematch",))

    async def contribute(self, conn: Any, hand: Any, value: Any, message_id: Any = None) -> None:
        self.calls.append(("contribute", hand, value))

    async def join(self, name: str, seat_wanted: int | None = None) -> tuple[int, str]:
        self.calls.append(("join", name, seat_wanted))
        return 2, "secret"

    async def take_bot_seat(self, name: str) -> tuple[int, str]:
        self.calls.append(("take_bot_seat", name))
        return 1, "later"


def run(kind: str, data: dict[str, Any], allowed: Any = None) -> tuple[Recorder, Joined | None]:
    table = Recorder()
    message = ClientMessage(kind, data, 7)
    if allowed is None:
        result = asyncio.run(perform(cast(TableRoom, table), Asker(1), message))
    else:
        result = asyncio.run(perform(cast(TableRoom, table), Asker(1), message, allowed))
    return table, result


def test_each_command_reaches_its_table_method() -> None:
    assert run("act", {"action": {"type": "bid", "bid": 1}})[0].calls == [("act", {"type": "bid", "bid": 1})]
    assert run("chat", {"text": "  hello\x00  all "})[0].calls == [("say", "hello all", 7)]
    assert run("react", {"reaction": "👍"})[0].calls == [("react", "👍")]
    for kind in ("start", "back", "rematch"):
        assert run(kind, {})[0].calls == [(kind,)]
    assert run("contribute", {"hand": 3, "value": "ab"})[0].calls == [("contribute", 3, "ab")]
    table, joined = run("join", {"name": "Ann", "seat": 2})
    assert table.calls == [("join", "Ann", 2)] and joined == Joined(2, "secret")
    table, joined = run("latecomer", {"name": "Bob"})  # a bot's seat, at the next hand
    assert table.calls == [("take_bot_seat", "Bob")] and joined == Joined(1, "later")
    assert set(COMMANDS) == {"act", "chat", "react", "start", "back", "rematch", "contribute", "join", "latecomer"}


def test_a_malformed_chat_or_reaction_is_refused_for_what_it_is_before_the_rate_limit() -> None:
    never = lambda _kind: False  # noqa: E731
    for kind, data, detail in (("chat", {"text": " \n "}, "text"), ("chat", {"text": 3}, "text"),
                               ("react", {"reaction": "🍕"}, "reaction")):
        with pytest.raises(ProtocolError) as refused:
            run(kind, data, never)
        assert (refused.value.code, refused.value.detail, refused.value.message_id) == ("bad-field", detail, 7)
    for kind, data in (("chat", {"text": "hi"}), ("react", {"reaction": "👍"})):
        with pytest.raises(ProtocolError) as limited:
            run(kind, data, never)
        assert limited.value.code == "rate-limited"


def test_the_rate_limit_is_asked_only_of_chat_and_reactions() -> None:
    asked: list[str] = []

    def allowed(kind: str) -> bool:
        asked.append(kind)
        return True

    for kind, data in (("act", {"action": {}}), ("start", {}), ("chat", {"text": "hi"}), ("react", {"reaction": "👍"})):
        run(kind, data, allowed)
    assert asked == ["chat", "react"]


def test_an_unknown_command_is_refused() -> None:
    with pytest.raises(ProtocolError) as refused:
        run("shuffle", {})
    assert refused.value.code == "unknown-type"
