"""The command ``ohhell verify``: check, hand by hand, that a record's deals are the ones its
revealed seeds and contributions give (see docs/fairness.md; registered lazily by :mod:`ohhell.cli`)."""

from __future__ import annotations

import json
import sys

import click

from ohhell.i18n import N_, _, ngettext


@click.command(help=N_("Check that every deal of a game record is the one its revealed server seeds and the "
                       "players' contributions give (provably fair deals).\n\n"
                       "Exit code 0: every hand verified; 1: a hand is not verified (the reason is printed) or "
                       "the record cannot be read; 2: a usage problem."))
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the result as one JSON object."))
@click.option("--scope", default=None, metavar="CODE",
              help=N_("The table code (or event id) the deals must name; by default the first hand's."))
def verify(file: str, as_json: bool, scope: str | None) -> None:
    """Check a record's deals against its revealed seeds (the help text is above, translated)."""
    from ohhell.errors import RecordError
    from ohhell.fairness import verified_count, verify_record
    from ohhell.record import read_record_file

    try:
        verdicts = verify_record(read_record_file(file), scope)
    except RecordError as error:
        if as_json:
            click.echo(json.dumps(error.to_json(), ensure_ascii=False))
        else:
            click.echo(_("%(kind)s: %(message)s") % {"kind": error.kind, "message": error.message}, err=True)
        sys.exit(1)
    count, verified = len(verdicts), verified_count(verdicts)
    if as_json:
        click.echo(json.dumps({"verified": verified == count, "hands": [v.to_json() for v in verdicts]},
                              ensure_ascii=False))
    else:
        for verdict in verdicts:
            where = _("hand %(hand)d") % {"hand": verdict.hand}
            if verdict.scheme is not None:
                where += f" ({verdict.scheme}, {verdict.scope})"
            click.echo(f"{where}: {verdict.message}")
        if not verdicts:
            click.echo(_("The record has no hand to verify."))
        else:
            click.echo(ngettext("%(verified)d of %(count)d hand verified.",
                                "%(verified)d of %(count)d hands verified.", count)
                       % {"verified": verified, "count": count})
    if verified != count:
        sys.exit(1)
