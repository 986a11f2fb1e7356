"""Simulations on a Dask cluster: `--scheduler tcp://HOST:8786` (a cluster that runs already) or
`--cluster local[:N]` (one started on this machine for the command).

The work is the same pieces a `--jobs` run plays, each named by what it plays (its seed, its pairing
or table, its game numbers), so the numbers do not depend on the workers: how many, how fast, or
which of them died on the way (Dask runs a dead worker's pieces again elsewhere; each piece's result
is taken once). The compiled ruleset goes to every worker once, and each piece names the dtc version
and the ruleset hash it was made for: a worker with another version, or a ruleset that hashes
otherwise, refuses it in one line (`ClusterRefused`). Dask is an optional extra: `pip install
'dtc[dask]'`.
"""

from __future__ import annotations

import itertools
import logging
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import dtc
from dtc.artifact import Artifact

CONNECT_TIMEOUT = "10s"  # a scheduler that does not answer in this long is unreachable
PIECES_OUT = 4  # pieces of work sent ahead per worker


@dataclass(frozen=True)
class Cluster:
    """Where pieces of work run: a scheduler's address, or a local cluster of `workers` processes."""

    scheduler: str | None = None
    workers: int | None = None


class ClusterError(Exception):
    """The cluster cannot be used (unreachable, Dask not installed, a worker refusing the work): the
    message says what to do; the command exits 2."""


class ClusterRefused(Exception):
    """Raised on a worker that cannot play a piece as it was made (another dtc, another ruleset)."""


def parse_cluster(scheduler: str | None, local: str | None) -> Cluster | None:
    """`--scheduler ADDRESS` / `--cluster local[:N]` as given on the command line (None: neither);
    ClusterError for both, or for a `--cluster` that is not `local` or `local:N`."""
    if scheduler is not None and local is not None:
        raise ClusterError("give --scheduler or --cluster, not both")
    if scheduler is not None:
        if "://" not in scheduler and ":" not in scheduler:
            raise ClusterError(f"--scheduler {scheduler}: give the scheduler's address, such as "
                               "tcp://10.0.0.5:8786")
        return Cluster(scheduler=scheduler)
    if local is None:
        return None
    name, _, count = local.partition(":")
    if name != "local" or (count and not (count.isdigit() and 1 <= int(count) <= 256)):
        raise ClusterError(f"--cluster {local}: write `local` (one worker per core) or `local:N` "
                           "(N workers, 1 to 256)")
    return Cluster(workers=int(count) if count else (os.cpu_count() or 1))


# ------------------------------------------------------------------ on a worker
_LOADED: dict[str, Artifact] = {}  # the rulesets this worker has loaded, by hash


def worker_version() -> str:
    """The dtc version a worker runs (asked of every worker before any work is sent)."""
    return dtc.__version__


def play_piece(play: Callable[..., Any], raw: bytes, content_hash: str, version: str, piece: tuple) -> Any:
    """On a worker: `play(artifact, *piece)`, the ruleset loaded from `raw` once per worker and checked
    against the hash and the dtc version the piece was made for."""
    if version != dtc.__version__:
        raise ClusterRefused(f"this worker runs dtc {dtc.__version__}; the work is for dtc {version}: "
                             "install the same dtc on every worker")
    loaded = _LOADED.get(content_hash)
    if loaded is None:
        from dtc import artifact as artifact_mod

        loaded = artifact_mod.load(raw)
        if loaded.content_hash != content_hash:
            raise ClusterRefused(f"the ruleset this worker received hashes to {loaded.content_hash[:12]}, "
                                 f"not {content_hash[:12]}: it is not the ruleset of the run")
        _LOADED[content_hash] = loaded
    return play(loaded, *piece)


# ------------------------------------------------------------------ on the client
def connect(cluster: Cluster):
    """A Dask client for the cluster (with the local cluster it started, or None), or ClusterError."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError("a cluster needs Dask: pip install 'dtc[dask]'") from None
    # Dask's own log lines (a closed connection as Ctrl-C stops the work, a busy dashboard port) are
    # not the command's: what goes wrong reaches dtc as an exception, and is said in one line
    logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)
    warnings.filterwarnings("ignore", module="distributed")
    if cluster.scheduler is None:
        local = LocalCluster(n_workers=cluster.workers, threads_per_worker=1, processes=True,
                             dashboard_address=":0", silence_logs=logging.CRITICAL + 1)
        return Client(local), local
    try:
        return Client(cluster.scheduler, timeout=CONNECT_TIMEOUT), None
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {cluster.scheduler} ({exc}); start one "
                           "with `dask scheduler` and workers with `dask worker ADDRESS`") from None


def check_versions(client) -> None:
    """Every worker runs this dtc, or ClusterError naming the first that does not."""
    versions = client.run(worker_version)
    if not versions:
        raise ClusterError("the cluster has no workers; start some with `dask worker ADDRESS`")
    for address, version in sorted(versions.items()):
        if version != dtc.__version__:
            raise ClusterError(f"worker {address} runs dtc {version}, this is dtc {dtc.__version__}: "
                               "install the same dtc on every worker")


def run_on_cluster(cluster: Cluster, artifact: Artifact, raw: bytes, play: Callable[..., Any],
                   pieces: list[tuple], done: Callable[[Any], None] | None = None) -> list[Any]:
    """`play(artifact, *piece)` for every piece on the cluster, the results in the pieces' order;
    `done(result)` is told as each piece finishes (in any order). A few pieces per worker are out at
    a time (memory stays small for a million games, and Ctrl-C has little to cancel)."""
    client, local = connect(cluster)
    out: set = set()  # the pieces sent and not back yet
    try:
        check_versions(client)
        from distributed import as_completed

        shared = client.scatter(raw, broadcast=True)  # the ruleset, sent to each worker once
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        waiting = iter(enumerate(pieces))
        index: dict[str, int] = {}
        finished = as_completed()

        def send(count: int) -> None:
            for k, piece in itertools.islice(waiting, count):
                future = client.submit(play_piece, play, shared, artifact.content_hash, dtc.__version__,
                                       piece, key=_key(play, artifact, k, piece))
                index[future.key] = k
                out.add(future)
                finished.add(future)

        results: list[Any] = [None] * len(pieces)
        send(PIECES_OUT * workers)
        for future in finished:
            out.discard(future)
            try:
                result = future.result()
            except ClusterRefused as exc:
                raise ClusterError(f"a worker refused the work: {exc}") from None
            results[index.pop(future.key)] = result
            future.release()
            send(1)
            if done is not None:
                done(result)
        return results
    except KeyboardInterrupt:
        client.cancel(list(out))
        raise
    finally:
        client.close()
        if local is not None:
            local.close()


def _key(play: Callable[..., Any], artifact: Artifact, k: int, piece: tuple) -> str:
    """The piece's Dask key: what it plays, whole (the same key is the same work, whoever sends it:
    a result Dask holds already for it is the one it would compute)."""
    import hashlib

    what = repr((play.__module__, play.__qualname__, artifact.content_hash, dtc.__version__, piece))
    return f"dtc-{play.__name__}-{k}-{hashlib.sha256(what.encode()).hexdigest()[:24]}"
