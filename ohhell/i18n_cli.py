"""The command ``ohhell language``: show or remember the language ohhell speaks.

Without ``--lang`` every command follows ``OHHELL_LANG``, then the language remembered here,
then ``LANG`` (see :mod:`ohhell.i18n`). The web app remembers its own choice in the browser.
"""

from __future__ import annotations

import click

from ohhell.i18n import LANGUAGE_NAMES, LANGUAGES, N_, _, current_language, remember_language, set_language


@click.command(help=N_("Show the language ohhell speaks, or remember one for every later command "
                       "(CODE: en, ru, uk, bg, ro, ky)."))
@click.argument("code", required=False, type=click.Choice(LANGUAGES))
@click.option("--forget", is_flag=True, help=N_("Forget the remembered language and follow LANG again."))
def language(code: str | None, forget: bool) -> None:
    if forget:
        remember_language(None)
        set_language()
        click.echo(_("The remembered language is forgotten; ohhell now speaks %(name)s.")
                   % {"name": LANGUAGE_NAMES[current_language()]})
        return
    if code is None:
        click.echo(_("ohhell speaks %(name)s (%(code)s). Languages: %(codes)s.")
                   % {"name": LANGUAGE_NAMES[current_language()], "code": current_language(),
                      "codes": ", ".join(f"{item} ({LANGUAGE_NAMES[item]})" for item in LANGUAGES)})
        return
    path = remember_language(code)
    set_language(code)
    click.echo(_("ohhell will speak %(name)s from now on (remembered in %(path)s).")
               % {"name": LANGUAGE_NAMES[code], "path": path})
