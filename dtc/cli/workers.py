"""Where a simulating command plays its games: `--jobs N` worker processes here, or a Dask cluster
(`--scheduler ADDRESS`, `--cluster local[:N]`: `dtc.cluster`). The numbers do not depend on it."""

from __future__ import annotations

import functools
import sys

import click

SCHEDULER_HELP = ("Play the games on a running Dask cluster, by its scheduler's address "
                  "(tcp://HOST:8786); the numbers are those of --jobs 1.")
CLUSTER_HELP = ("Play the games on a Dask cluster started here for the command: `local` (a worker per "
                "core) or `local:N`; the numbers are those of --jobs 1.")


def cluster_options(command):
    """`--scheduler` and `--cluster` for a simulating command, whose function then takes `cluster` (a
    `dtc.cluster.Cluster`, or None for `--jobs`); nonsense in them, or a cluster that cannot be used,
    is one line on stderr and exit 2."""

    @functools.wraps(command)
    def run(*args, scheduler=None, local_cluster=None, **kwargs):
        from dtc.cli.main import EXIT_USAGE
        from dtc.cluster import ClusterError, parse_cluster

        try:
            cluster = parse_cluster(scheduler, local_cluster)
            return command(*args, cluster=cluster, **kwargs)
        except ClusterError as exc:
            click.echo(f"error: {' '.join(str(exc).split())}", err=True)
            sys.exit(EXIT_USAGE)

    run = click.option("--scheduler", metavar="ADDRESS", help=SCHEDULER_HELP)(run)
    return click.option("--cluster", "local_cluster", metavar="local[:N]", help=CLUSTER_HELP)(run)
