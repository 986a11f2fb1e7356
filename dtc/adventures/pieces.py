"""Simulations in pieces of work over worker processes: each piece is named by what it plays (its seed
and its game numbers are in it), so the results are the same for any number of workers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dtc.artifact import Artifact
from dtc.cluster import Cluster

_WORKER: dict[str, Any] = {}


def _init(raw: bytes) -> None:
    from dtc import artifact as artifact_mod
    from dtc.dicethrone.simulate import worker_signals

    worker_signals()
    _WORKER["artifact"] = artifact_mod.load(raw)


def _task(job: tuple) -> Any:
    play, piece = job
    return play(_WORKER["artifact"], *piece)


def run_pieces(artifact: Artifact, raw: bytes, play: Callable[..., Any], pieces: list[tuple],
               jobs: int, cluster: Cluster | None = None) -> list[Any]:
    """`play(artifact, *piece)` for every piece, in the pieces' order; with more than one job, in
    worker processes that load the ruleset from `raw` once each (`play` is a module's function); on
    a Dask `cluster`, there (`dtc.cluster`)."""
    import multiprocessing

    if cluster is not None:
        from dtc.cluster import run_on_cluster

        return run_on_cluster(cluster, artifact, raw, play, pieces)
    jobs = min(jobs, len(pieces))
    if jobs <= 1:
        return [play(artifact, *piece) for piece in pieces]
    with multiprocessing.get_context("fork").Pool(jobs, initializer=_init, initargs=(raw,)) as pool:
        return list(pool.imap(_task, [(play, piece) for piece in pieces]))
