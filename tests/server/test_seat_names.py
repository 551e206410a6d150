"""A guest may not take a bot's name ("Bot 3" beside the bot at seat 3, in any language) or the
name of a signed-in player at the table: 409 ``name-taken`` with a message in the page's
language, and the seat stays open."""

from __future__ import annotations

from pathlib import Path

from accounts_helpers import Browser, app_client


def _table(guest: Browser, name: str = "Ann") -> dict[str, str]:
    answer = guest.post("/api/tables", {"name": name, "preset": "classic", "players": 4,
                                        "seats": ["basic", "open", "open"]})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_a_bots_name_and_a_signed_in_players_are_refused(tmp_path: Path) -> None:
    with app_client(f"sqlite:///{tmp_path / 'names.db'}") as site:
        host = Browser(site)
        table = _table(host, name="Zoe")
        code = table["code"]
        host.signup("Zoe", seats=[{"table": code, "token": table["token"]}])
        guest = Browser(site)
        for name in ("Bot 2", "bot  2", "BOT 4", "Бот 3", "zoe"):
            answer = guest.post(f"/api/tables/{code}/join?lang=en", {"name": name})
            assert answer.status_code == 409, (name, answer.text)
            assert answer.json()["code"] == "name-taken"
            assert "another" in answer.json()["error"]
        russian = guest.post(f"/api/tables/{code}/join?lang=ru", {"name": "Bot 2"}).json()["error"]
        assert any("а" <= ch <= "я" for ch in russian), russian
        assert site.get(f"/api/tables/{code}").json()["open_seats"] == [2, 3]
        # Another name, and a guest's name shared with the other guest's, are fine.
        assert guest.post(f"/api/tables/{code}/join", {"name": "Bottom 2"}).status_code == 200
        assert Browser(site).post(f"/api/tables/{code}/join", {"name": "Bottom 2"}).status_code == 200


def test_a_guest_named_like_a_guest_host_is_seated(tmp_path: Path) -> None:
    """Only signed-in players' names are kept: a guest host's name proves nobody."""
    with app_client(f"sqlite:///{tmp_path / 'names.db'}") as site:
        code = _table(Browser(site), name="Zoe")["code"]
        assert Browser(site).post(f"/api/tables/{code}/join", {"name": "Zoe"}).status_code == 200
