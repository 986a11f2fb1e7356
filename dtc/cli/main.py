"""CLI: the `dtc` group and its console script; the commands live a group per module, each thin
over its stage: content.py (lint, show, compile, disasm, explain, heroes, modes), game.py (play,
replay), simulate.py (simulate, odds), valeria.py, adventure.py, sweep.py, views.py (board, print,
report, serve).

Exit codes are defined in one place (`dtc.cli.common`): 0 clean, 1 problems in the content, 2
usage or I/O errors, 3 a dtc bug, 128+N a signal. Text diagnostics go to stderr; machine formats
(json, github, sarif) and requested output go to stdout.
"""

from __future__ import annotations

import os
import signal
import sys

import click

from dtc import __version__
from dtc.cli.adventure import adventure
from dtc.cli.common import EXIT_CLEAN, EXIT_PROBLEMS, EXIT_USAGE, _interrupted_code, _ruleset, _terminated
from dtc.cli.content import _color, compile_command, disasm, explain, heroes, lint, modes, show
from dtc.cli.game import (
    _narrator,
    _replay,
    _resume,
    _ruleset_file,
    _run,
    _saved_log,
    _saved_ruleset,
    play,
    replay,
)
from dtc.cli.simulate import odds, simulate
from dtc.cli.sweep import sweep
from dtc.cli.valeria import valeria
from dtc.cli.views import board, print_command, report, serve

# the helpers the command modules and the tests import from here, as they did before the split
__all__ = ["EXIT_CLEAN", "EXIT_PROBLEMS", "EXIT_USAGE", "_color", "_narrator", "_replay", "_resume",
           "_ruleset", "_ruleset_file", "_run", "_saved_log", "_saved_ruleset", "cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="dtc")
def cli() -> None:
    """dtc: author, check and play dice-and-card board games from YAML content."""


for _command in (lint, show, compile_command, disasm, explain, heroes, modes, play, replay, simulate, odds,
                 valeria, adventure, sweep, board, print_command, report, serve):
    cli.add_command(_command)


def main() -> None:
    """The console script: the commands, with interruptions and dtc bugs reported briefly."""
    signal.signal(signal.SIGTERM, _terminated)
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        sys.exit(_interrupted_code())
    except click.ClickException as exc:
        exc.show()
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(_interrupted_code())
    except BrokenPipeError:
        # the reader went away (`dtc show HERO | head`): nothing left to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(EXIT_PROBLEMS)
    except SystemExit:
        raise
    except Exception as exc:  # a dtc bug: say so in one line, full trace only on request
        if os.environ.get("DTC_DEBUG"):
            raise
        click.echo(f"internal error: {type(exc).__name__}: {exc} (this is a dtc bug; run with "
                   "DTC_DEBUG=1 for the full trace and please report it)", err=True)
        sys.exit(3)
