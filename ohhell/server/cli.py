"""``ohhell serve``: the web app on one command.

>>> from click.testing import CliRunner
>>> "--database" in CliRunner().invoke(serve, ["--help"]).output
True
"""

from __future__ import annotations

import logging

import click

from ohhell.bots.external import check_command
from ohhell.i18n import N_, _
from ohhell.server.addresses import EVERY_INTERFACE, site_addresses
from ohhell.server.config import DEFAULT_DATABASE, ServerConfig
from ohhell.server.web.security import origins


def _bot_command(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict[str, str]:
    commands: dict[str, str] = {}
    for value in values:
        name, _sep, spec = value.partition("=")
        name = name.strip()
        if not name or not spec.startswith("cmd:") or not name.replace("-", "").replace("_", "").isalnum():
            raise click.BadParameter(_("expected NAME=cmd:PROGRAM, not %(value)r") % {"value": value})
        try:
            check_command(spec)  # a missing program is refused now, not when a game starts
        except ValueError as error:
            raise click.BadParameter(f"{name}: {error}") from error
        commands[name] = spec
    return commands


def _origins(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    try:
        return origins(values)
    except ValueError:
        raise click.BadParameter(_("expected an origin such as https://cards.example.org, not %(value)r")
                                 % {"value": next(v for v in values if not _is_origin(v))}) from None


def _is_origin(value: str) -> bool:
    try:
        origins([value])
    except ValueError:
        return False
    return True


@click.command(help=N_("Start the web app: open the page, create a table, send the link to friends."))
@click.option("--host", default="127.0.0.1", show_default=True,
              help=N_("Address to listen on (0.0.0.0: every network)."))
@click.option("--port", type=int, default=8000, show_default=True, help=N_("Port to listen on."))
@click.option("--database", default=DEFAULT_DATABASE, show_default=True,
              help=N_("sqlite:///FILE or postgresql://USER:PASSWORD@HOST/DB."))
@click.option("--broker", default=None, metavar="redis://HOST:PORT",
              help=N_("Redis or Valkey shared by several server processes of one site (with a PostgreSQL "
                      "--database): run any number behind a load balancer."))
@click.option("--sqlite-sync", type=click.Choice(["full", "normal"]), default="full", show_default=True,
              help=N_("full: every move is fsynced before anyone sees it (survives a power cut); normal: faster, "
                      "survives the server's death (kill -9 too) but not the machine's."))
@click.option("--bot-command", "bot_commands", multiple=True, callback=_bot_command, metavar="NAME=cmd:PROGRAM",
              help=N_("Offer an external bot as a level called NAME (only the operator can add these)."))
@click.option("--bot-timeout", type=click.FloatRange(min=0, min_open=True), default=None,
              help=N_("Seconds an external bot (--bot-command) may think per decision before the fallback bot "
                      "plays for it (default: 10)."))
@click.option("--bot-delay", type=float, default=ServerConfig.bot_delay, show_default=True,
              help=N_("Seconds a bot seems to think before it acts."))
@click.option("--trick-pause", type=float, default=ServerConfig.trick_pause, show_default=True,
              help=N_("Seconds a complete trick stays on the table."))
@click.option("--hand-pause", type=float, default=ServerConfig.hand_pause, show_default=True,
              help=N_("Seconds the last trick of a hand stays before the next deal."))
@click.option("--fair-window", type=click.FloatRange(min=0), default=ServerConfig.fair_window, show_default=True,
              help=N_("Seconds a deal waits for the players' contributions to its randomness (provably fair "
                      "deals); it deals at once when all are in."))
@click.option("--leave-grace", type=float, default=ServerConfig.leave_grace, show_default=True,
              help=N_("Seconds a disconnected player has before a bot plays for them."))
@click.option("--max-new-tables", type=int, default=ServerConfig.max_tables_per_minute, show_default=True,
              help=N_("Tables, seats and scoresheets one address may create per minute."))
@click.option("--hello-timeout", type=click.FloatRange(min=0, min_open=True), default=ServerConfig.hello_timeout,
              show_default=True,
              help=N_("Seconds a new WebSocket connection has to say hello before it is closed."))
@click.option("--allowed-origin", "allowed_origins", multiple=True, metavar="ORIGIN", callback=_origins,
              help=N_("Another origin (https://name) whose pages may connect to the game, for a site reached "
                      "under several names; the server's own origin is always allowed."))
@click.option("--forwarded-allow-ips", default="127.0.0.1", show_default=True, metavar="ADDRESSES",
              help=N_("Proxies whose X-Forwarded-For/-Proto headers are trusted (comma-separated, * for any): "
                      "behind a reverse proxy that terminates HTTPS, so the server knows the page is secure."))
@click.option("--log-level", type=click.Choice(["debug", "info", "warning", "error"]), default="info",
              show_default=True, help=N_("How much the server writes to its log."))
def serve(host: str, port: int, database: str, broker: str | None, sqlite_sync: str, bot_commands: dict[str, str],
          bot_timeout: float | None, bot_delay: float, trick_pause: float, hand_pause: float, fair_window: float,
          leave_grace: float, max_new_tables: int, hello_timeout: float, allowed_origins: tuple[str, ...],
          forwarded_allow_ips: str, log_level: str) -> None:
    """Start the web app: open the page, create a table, send the link to friends."""
    import uvicorn

    from ohhell.server.app import create_app, tune_gc

    if broker is not None:
        if not broker.startswith(("redis://", "rediss://", "unix://")):
            raise click.BadParameter(_("expected redis://HOST:PORT (Redis or Valkey), not %(value)r")
                                     % {"value": broker}, param_hint="--broker")
        try:
            import redis  # noqa: F401
        except ImportError:
            raise click.UsageError(_("--broker needs the Redis client: pip install -e '.[cluster]'")) from None
        if database.startswith("sqlite"):
            click.echo(_("Note: several processes on SQLite work on one machine only; use PostgreSQL for more."),
                       err=True)
    config = ServerConfig(database=database, broker=broker, sqlite_sync=sqlite_sync, bot_commands=bot_commands,
                          bot_timeout=bot_timeout, bot_delay=bot_delay, trick_pause=trick_pause, hand_pause=hand_pause,
                          leave_grace=leave_grace, fair_window=fair_window,
                          bot_jitter=ServerConfig.bot_jitter if bot_delay > 0 else 0.0,
                          max_tables_per_minute=max_new_tables, hello_timeout=hello_timeout,
                          allowed_origins=allowed_origins)
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    click.echo(_("Oh Hell is served (database: %(database)s); stop with Ctrl+C.") % {"database": database})
    pages = site_addresses(host, port)
    click.echo(_("Open %(address)s in your browser.") % {"address": pages[0]})
    if len(pages) > 1:
        click.echo(_("Friends on your network can open: %(addresses)s") % {"addresses": ", ".join(pages[1:])})
    elif host in EVERY_INTERFACE:
        click.echo(_("No network address found: friends on other machines cannot reach this one."))
    app = create_app(config)
    tune_gc()
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=config.max_frame_bytes,
                ws_ping_interval=20.0, ws_ping_timeout=20.0, timeout_graceful_shutdown=3,
                proxy_headers=True, forwarded_allow_ips=forwarded_allow_ips)
