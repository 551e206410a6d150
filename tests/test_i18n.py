"""The translations: every text of the package is in every catalog, translated, not fuzzy, with
its placeholders intact; plural forms per language; compiled catalogs up to date; the language
chosen from ``--lang``, ``OHHELL_LANG``, the remembered choice and ``LANG``; rank letters.

The texts are extracted from the source at test time (with Babel, as ``scripts/i18n`` does), so
a new text that nobody translated makes these tests fail.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

from ohhell import cards, i18n
from ohhell.cards import parse_card
from ohhell.i18n import (
    LANGUAGES,
    _,
    display_card,
    language_from_environment,
    ngettext,
    normalize_language,
    rank_letters,
    set_language,
    translations,
)

babel = pytest.importorskip("babel", reason="Babel (the test extra) extracts the texts")

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = tuple(language for language in LANGUAGES if language != "en")


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    """``scripts/i18n`` as a module: the same extraction and checks the script runs."""
    loader = SourceFileLoader("ohhell_i18n_tool", str(ROOT / "scripts" / "i18n"))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def template(tool: ModuleType) -> Any:
    """Every marked text of the package, extracted from the source now."""
    return tool.extract()


@pytest.fixture(autouse=True)
def english_afterwards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts without a remembered language (a private config directory) and leaves
    English behind for the tests that follow."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("OHHELL_LANG", raising=False)
    yield
    set_language("en")


# ----------------------------------------------------------------------------- the catalogs


def test_the_source_has_texts_and_the_template_is_current(tool: ModuleType, template: Any) -> None:
    ids = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in template if m.id}
    assert len(ids) > 500
    assert ("Your bid: how many tricks will you take?", None) in ids  # the web client's texts
    assert ("K", "card rank") in ids  # rank letters with their context
    assert ("Show this message and exit.", None) in ids  # click's own texts
    stored = tool.read(tool.POT)
    stored_ids = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in stored if m.id}
    assert stored_ids == ids, "ohhell/locale/ohhell.pot is stale: run scripts/i18n extract"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_text_is_translated_with_its_placeholders(tool: ModuleType, template: Any, language: str) -> None:
    problems = tool.problems(language, template)
    assert problems == [], "\n".join(problems[:40])


@pytest.mark.parametrize(("language", "forms"), [("ru", 3), ("uk", 3), ("bg", 2), ("ro", 3), ("ky", 2)])
def test_plural_forms_follow_cldr(tool: ModuleType, language: str, forms: int) -> None:
    from babel import Locale
    from babel.messages.plurals import get_plural

    catalog = tool.read(tool.po_path(language), language)
    assert catalog.num_plurals == forms
    assert catalog.plural_expr == get_plural(Locale.parse(language)).plural_expr
    assert not catalog.fuzzy


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_translation_formats_like_its_source(tool: ModuleType, language: str) -> None:
    """Fill every translation as the code fills its source text; a broken placeholder
    (``%(name)`` without its type, ``{name`` unclosed, a name the code does not give) raises."""
    catalog = tool.read(tool.po_path(language), language)
    failures = []
    for message in catalog:
        if not message.id:
            continue
        sources = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        values: dict[str, Any] = {}
        for source in sources:  # the code gives the values of both English forms
            values.update(_sample_values(source))
        brace = "{" in sources[0] and "%(" not in sources[0]
        for text in strings:
            try:
                if brace:
                    text.format(**values)
                elif "%(" in sources[0]:
                    text % values  # formatting is the test
            except (KeyError, ValueError, TypeError, IndexError) as error:
                failures.append(f"{text!r}: {error}")
    assert failures == []


def _sample_values(text: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, kind in re.findall(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?([sdrgf])", text):
        values[name] = 3 if kind in "dg" else 2.5 if kind == "f" else "x"
    for name in re.findall(r"\{(\w+)(?:![rsa])?\}", text):
        values[name] = "x"
    return values


def test_the_checks_find_a_broken_catalog(tool: ModuleType, template: Any, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The completeness check fails on a lost placeholder, a fuzzy entry, a missing text and a
    stale .mo (so the tests above can fail)."""
    from babel.messages.catalog import Catalog

    catalog = tool.read(tool.po_path("ru"), "ru")
    catalog.get("Seat %(n)d").string = "Место"  # the number is lost
    catalog.get("Your turn").flags.add("fuzzy")
    del catalog["Hint"]
    locale = tmp_path / "locale"
    monkeypatch.setattr(tool, "LOCALE", locale)
    tool.write(catalog, tool.po_path("ru"))
    (locale / "ru" / "LC_MESSAGES" / "ohhell.mo").write_bytes(b"stale")
    problems = "\n".join(tool.problems("ru", template))
    assert "'Seat %(n)d'" in problems and "placeholders" in problems
    assert "'Your turn' is fuzzy" in problems
    assert "'Hint' is not in the catalog" in problems
    assert "older than the .po" in problems
    assert isinstance(catalog, Catalog)


def test_placeholders_of_percent_and_brace_texts(tool: ModuleType) -> None:
    assert tool.placeholders("%(name)s bids %(bid)d") == ["%(bid)d", "%(name)s"]
    assert tool.placeholders("95% CI, 100%% sure") == []
    assert tool.placeholders("No such option {name!r}.") == ["{name!r}"]


def test_click_still_has_the_texts_we_translate() -> None:
    """The texts marked in ``i18n._click_texts`` must be click's own, or nobody asks for them."""
    import ast
    import inspect

    import click

    source = "".join(path.read_text(encoding="utf-8") for path in Path(click.__file__).parent.glob("*.py"))
    marked = [node.value for node in ast.walk(ast.parse(inspect.getsource(i18n._click_texts)))
              if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip()
              and not node.value.startswith("The texts of click")]
    assert len(marked) >= 25
    for text in marked:
        assert repr(text) in source or f'"{text}"' in source, text


# ----------------------------------------------------------------------------- at run time


def test_runtime_translations_and_plurals() -> None:
    set_language("ru")
    assert _("trump") == "козырь"
    forms = [ngettext("%(count)d trick", "%(count)d tricks", n) % {"count": n} for n in (1, 2, 5, 11, 21, 22)]
    assert forms == ["1 взятка", "2 взятки", "5 взяток", "11 взяток", "21 взятка", "22 взятки"]
    set_language("uk")
    assert ngettext("%(count)d card", "%(count)d cards", 3) % {"count": 3} == "3 карти"
    set_language("ro")
    assert [ngettext("%(count)d card", "%(count)d cards", n) % {"count": n} for n in (1, 2, 20)] == [
        "1 carte", "2 cărți", "20 de cărți"]
    set_language("bg")
    assert ngettext("%(count)d point", "%(count)d points", 7) % {"count": 7} == "7 точки"
    set_language("ky")
    assert _("Trump") == "Көзүр"


@pytest.mark.parametrize(("language", "letters"), [
    ("en", "A K Q J"), ("ru", "Т К Д В"), ("uk", "Т К Д В"), ("bg", "А П Д В"), ("ro", "A K Q J"), ("ky", "Т К Д В")])
def test_rank_letters_follow_the_language(language: str, letters: str) -> None:
    assert " ".join(reversed(rank_letters(language)[-4:])) == letters
    assert display_card(parse_card("TH"), language) == "10♥"
    assert display_card(parse_card("AS"), language) == letters[0] + "♠"
    set_language(language)
    assert display_card(parse_card("KD")) == letters.split()[1] + "♦"


def test_the_terminal_shows_and_reads_the_rank_letters() -> None:
    from ohhell.tui.render import card_label, rank_keys

    set_language("ru")
    assert card_label(parse_card("QC")) == "Д♣"
    assert card_label(52) == "Дж1"  # the red joker (Дж2: the black one)
    keys = rank_keys()
    assert keys["д"] == keys["q"] == 10 and keys["т"] == keys["a"] == 12 and keys["t"] == 8


def test_the_web_client_gets_rank_letters_levels_and_the_dealer_chip() -> None:
    from ohhell.server.texts import client_catalog

    catalog = client_catalog("ru")
    assert catalog["ranks"]["A"] == "Т" and catalog["ranks"]["T"] == "10" and catalog["ranks"]["X"] == "Дж"
    assert catalog["dealer_chip"] == "С"
    assert catalog["levels"]["strong"] == "эксперт" and catalog["levels"]["beginner"] == "новичок"
    english = client_catalog("en")
    assert english["ranks"]["K"] == "K" and english["dealer_chip"] == "D"


# ----------------------------------------------------------------------------- which language


@pytest.mark.parametrize(("variables", "expected"), [
    ({"LANG": "ru_RU.UTF-8"}, "ru"),
    ({"LANG": "uk_UA.UTF-8", "LC_ALL": "bg_BG.UTF-8"}, "bg"),
    ({"LANGUAGE": "ky:ru", "LANG": "ru_RU.UTF-8"}, "ky"),
    ({"LANGUAGE": "fr:ro", "LANG": "en_US.UTF-8"}, "ro"),
    ({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"OHHELL_LANG": "uk", "LANG": "ru_RU.UTF-8"}, "uk"),
    ({}, "en"),
])
def test_the_language_of_the_environment(monkeypatch: pytest.MonkeyPatch, variables: dict[str, str],
                                         expected: str) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "OHHELL_LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert language_from_environment() == expected


def test_normalize_language() -> None:
    assert [normalize_language(tag) for tag in ("ru_RU.UTF-8", "uk-UA", "bg", "ro_RO@euro", "KY", "fr", "")] == [
        "ru", "uk", "bg", "ro", "ky", "en", "en"]


def test_the_remembered_language_beats_lang_but_not_ohhell_lang(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    runner = CliRunner()
    from ohhell.cli import main

    result = runner.invoke(main, ["language", "ky"])
    assert result.exit_code == 0, result.output
    assert "Кыргызча" in result.output
    assert i18n.remembered_language() == "ky"
    assert language_from_environment() == "ky"
    assert "Көзүр" in runner.invoke(main, ["rules", "classic"]).output
    monkeypatch.setenv("OHHELL_LANG", "uk")
    assert "Козир" in runner.invoke(main, ["rules", "classic"]).output
    monkeypatch.delenv("OHHELL_LANG")
    result = runner.invoke(main, ["language", "--forget"])
    assert result.exit_code == 0 and "Русский" in result.output
    assert i18n.remembered_language() is None
    assert "ohhell speaks English (en)" in runner.invoke(main, ["--lang", "en", "language"]).output


# ----------------------------------------------------------------------------- the command line


def test_lang_anywhere_on_the_command_line_translates_help_and_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    from ohhell.cli import main

    monkeypatch.setenv("LANG", "C.UTF-8")
    runner = CliRunner()
    before = runner.invoke(main, ["rules", "--help"]).output
    assert "List the presets" in before and "Usage:" in before
    for args in (["--lang", "ru", "rules", "--help"], ["rules", "--help", "--lang", "ru"],
                 ["rules", "--lang=ru", "-h"]):
        result = runner.invoke(main, args)
        assert result.exit_code == 0, result.output
        assert "Список вариантов правил" in result.output
        assert "Использование:" in result.output and "Показать эту справку и выйти." in result.output
    top = runner.invoke(main, ["--help", "--lang", "bg"]).output
    assert "Употреба:" in top and "Команди:" in top and "Играйте Oh Hell срещу ботове в терминала." in top
    error = runner.invoke(main, ["--lang", "uk", "rules", "nope"])
    assert error.exit_code == 2
    assert "Помилка:" in error.output and "варіанта 'nope' немає" in error.output
    bad = runner.invoke(main, ["--lang", "xx", "rules"])
    assert bad.exit_code == 2 and "'xx'" in bad.output
    assert ", версия " in runner.invoke(main, ["--version", "--lang", "ru"]).output
    # Without --lang the next invocation follows the environment again.
    assert "List the presets" in runner.invoke(main, ["rules", "--help"]).output


def test_replay_errors_are_whole_sentences(tmp_path: Path) -> None:
    import json

    from ohhell.cli import main

    runner = CliRunner()
    record = json.loads(runner.invoke(main, ["deal", "--players", "3", "--seed", "1"]).output)
    record["hands"][0]["bids"][0] = 99
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(main, ["--lang", "ru", "replay", str(path)])
    assert result.exit_code == 1
    assert "illegal-bid: сдача 1, позиция 1: место 1 может заявить от 0 до 10, а не 99" in result.output


def test_every_language_is_installed_with_the_package() -> None:
    """The compiled catalogs are where gettext looks (they are committed: a plain
    ``pip install -e .`` needs no build step to speak every language)."""
    for language in TRANSLATED:
        assert (ROOT / "ohhell" / "locale" / language / "LC_MESSAGES" / "ohhell.mo").is_file()
        assert translations(language).gettext("Trump") != "Trump"


# ----------------------------------------------------------------------------- placeholders, glossary, Kyrgyz


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_entry_keeps_the_placeholders_of_its_english(tool: ModuleType, language: str) -> None:
    """Every entry of the catalog itself (not only the texts the source has now) has the
    placeholders of its English text: the same ones, as often, of the same type."""
    catalog = tool.read(tool.po_path(language), language)
    problems = []
    for message in catalog:
        if not message.id:
            continue
        problems += [f"{message.id!r}: {problem}" for problem in tool.placeholder_problems(
            message.id, message.string, tool.first_form_is_one_alone(catalog))]
    assert problems == []


def test_the_placeholder_check_finds_a_changed_placeholder(tool: ModuleType) -> None:
    assert tool.placeholder_problems("%(n)d players", "%(n)s игроков")  # another type
    assert tool.placeholder_problems("%(name)s and %(name)s", "%(name)s")  # once instead of twice
    assert tool.placeholder_problems("Seat %(n)d", "Место %(m)d")  # another name
    assert tool.placeholder_problems(("%(n)d card of %(size)d", "%(n)d cards of %(size)d"),
                                     ["%(n)d карта", "%(n)d карты из %(size)d"])  # the size lost in a form
    assert not tool.placeholder_problems("95% of %(n)d", "95% из %(n)d")


GLOSSARY = ROOT / "docs" / "translations.md"


def glossary(language: str) -> list[tuple[list[str], list[str], list[str]]]:
    """The glossary table of ``language`` in docs/translations.md: for each row the English terms,
    the checked stems and the words never to use."""
    text = GLOSSARY.read_text(encoding="utf-8")
    section = re.search(rf"^### .*\({language}\)\n(.*?)(?=^### |^## |\Z)", text, re.S | re.M)
    assert section, f"docs/translations.md has no glossary for {language}"
    rows = []
    for line in section.group(1).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("English", "") or set(cells[0]) <= {"-"}:
            continue
        english, _words, checked, never = cells
        terms = [term.strip() for term in re.sub(r"\(.*?\)", "", english).split(";") if term.strip()]
        rows.append((terms, [stem.strip() for stem in checked.split(",") if stem.strip()],
                     [word.strip() for word in never.split(",") if word.strip()]))
    return rows


def glossary_problems(language: str, catalog: Any) -> list[str]:
    """Translations of ``catalog`` that do not follow the glossary of ``language``."""
    rows = glossary(language)
    checked = sorted(((term, stems) for terms, stems, _never in rows if stems for term in terms),
                     key=lambda item: -len(item[0]))
    never = [word for _terms, _stems, words in rows for word in words]
    out = []
    for message in catalog:
        if not message.id or message.context:
            continue
        english = message.id if isinstance(message.id, str) else message.id[0]
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        # Placeholders are not words: %(trump)s is filled in with a word of its own.
        remaining = re.sub(r"%\(\w+\)[a-z]|\{\w+(?:![rsa])?\}", " ", english)
        for term, stems in checked:
            pattern = re.compile(rf"\b{re.escape(term)}(?:s|es|ed|ing)?\b", re.I)
            if not pattern.search(remaining):
                continue
            remaining = pattern.sub(" ", remaining)
            for text in strings:
                lowered = text.lower()
                if term.split()[-1] in text:  # the English word kept: a field of the record format
                    continue
                if not any(stem.lower() in lowered for stem in stems):
                    out.append(f"{language}: {english!r}: {text!r} has no {'/'.join(stems)} for {term!r}")
        for word in never:
            # A whole word, or the start of one with a final * (трюк* is also трюки).
            stem = word.rstrip("*")
            pattern = rf"(?<!\w){re.escape(stem)}" + (r"\w*" if word.endswith("*") else r"(?!\w)")
            for text in strings:
                if re.search(pattern, text, re.I) and not re.search(pattern, english, re.I):
                    out.append(f"{language}: {english!r}: {text!r} uses {word!r}")
    return out


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalogs_follow_the_glossary(tool: ModuleType, language: str) -> None:
    rows = glossary(language)
    assert {"trick", "trump", "suit", "dealer", "joker"} <= {term for terms, stems, _never in rows if stems
                                                             for term in terms}
    problems = glossary_problems(language, tool.read(tool.po_path(language), language))
    assert problems == [], "\n".join(problems)


def test_the_glossary_check_finds_a_stray_word(tool: ModuleType) -> None:
    catalog = tool.read(tool.po_path("ru"), "ru")
    catalog.get("You win the trick.").string = "Вы выиграли трюк."
    catalog.get("Claim refused: the engine cannot prove that every remaining trick is yours.").string = \
        "Отказано: движок не может доказать, что все оставшиеся взятки ваши."
    problems = "\n".join(glossary_problems("ru", catalog))
    assert "'You win the trick.'" in problems and "взят" in problems
    assert "uses 'движок'" in problems
    ro = tool.read(tool.po_path("ro"), "ro")
    ro.get("Your hand").string = "Cărțile voastre"
    assert "uses 'voastre'" in "\n".join(glossary_problems("ro", ro))


KYRGYZ_ENDINGS = {  # the numbers 0 to 20 as Kyrgyz writes them with each case ending
    "dative": "0гө 1ге 2ге 3кө 4кө 5ке 6га 7ге 8ге 9га 10го 11ге 12ге 13кө 14кө 15ке 16га 17ге 18ге 19га 20га",
    "ablative": "0дөн 1ден 2ден 3төн 4төн 5тен 6дан 7ден 8ден 9дан 10дон 11ден 12ден 13төн 14төн 15тен 16дан "
                "17ден 18ден 19дан 20дан",
    "locative": "0дө 1де 2де 3тө 4тө 5те 6да 7де 8де 9да 10до 11де 12де 13тө 14тө 15те 16да 17де 18де 19да 20да",
    "genitive": "0дүн 1дин 2нин 3түн 4түн 5тин 6нын 7нин 8дин 9дун 10дун 11дин 12нин 13түн 14түн 15тин 16нын "
                "17нин 18дин 19дун 20нын",
    "accusative": "0дү 1ди 2ни 3тү 4тү 5ти 6ны 7ни 8ди 9ду 10ду 11ди 12ни 13тү 14тү 15ти 16ны 17ни 18ди 19ду 20ны",
}


@pytest.mark.parametrize("case", sorted(KYRGYZ_ENDINGS))
def test_kyrgyz_endings_after_numbers_follow_the_last_sound(case: str) -> None:
    written = " ".join(f"{n}{i18n.kyrgyz_number_ending(n, case)}" for n in range(21))
    assert written == KYRGYZ_ENDINGS[case]
    # Whatever form a translation writes, the number filled in decides.
    wrong = " ".join(f"{n}{KYRGYZ_ENDINGS[case].split()[3].removeprefix('3')}" for n in range(21))
    assert i18n.fix_kyrgyz_number_endings(wrong) == KYRGYZ_ENDINGS[case]
    assert [i18n.kyrgyz_number_word(n) for n in (30, 100, 115, 2000)] == ["отуз", "жүз", "беш", "миң"]


def test_kyrgyz_messages_get_the_ending_of_the_number() -> None:
    set_language("ky")
    assert _("You may bid 0 to %(max)d.") % {"max": 10} == "0дөн 10го чейин заявка бере аласыз."
    assert _("You may bid 0 to %(max)d.") % {"max": 3} == "0дөн 3кө чейин заявка бере аласыз."
    assert _("You may bid 0 to %(max)d.") % {"max": 7} == "0дөн 7ге чейин заявка бере аласыз."
    assert "3төн 7ге чейин" in _("Oh Hell is played by %(low)d to %(high)d players, not %(value)r") % {
        "low": 3, "high": 7, "value": 2}
    assert i18n.fix_kyrgyz_number_endings("10 дана") == "10 дана"  # a word after a space is not an ending
    set_language("ru")
    assert type(_("You may bid 0 to %(max)d.")) is str  # other languages are left alone


@pytest.mark.parametrize("language", TRANSLATED)
def test_help_texts_say_seed_in_the_language(language: str) -> None:
    from ohhell.cli import main

    runner = CliRunner()
    for command in (["play", "--help"], ["deal", "--help"], ["suggest", "--help"]):
        output = runner.invoke(main, ["--lang", language, *command]).output
        assert "--seed" in output and "Seed" not in output and "seed'" not in output, output


def test_set_language_is_the_default_of_every_context_without_a_scope_of_its_own() -> None:
    """``set_language`` (the command line, the terminal apps) sets what a thread or task without
    a ``speaking`` scope sees; inside a scope it changes that scope until it ends."""
    import threading

    set_language("ru")
    try:
        seen: list[str] = []
        thread = threading.Thread(target=lambda: seen.append(_("trump")))
        thread.start()
        thread.join()
        assert seen == ["козырь"]
        with i18n.speaking("uk"):
            assert _("trump") == "козир"
            set_language("bg")
            assert i18n.current_language() == "bg"
        assert i18n.current_language() == "bg"
        with i18n.speaking("ky", cards_as_seen=True):
            assert cards.message_card(parse_card("TH")) == "10♥"
        assert cards.message_card(parse_card("TH")) == "TH"
    finally:
        set_language("en")
