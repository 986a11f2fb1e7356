"""Simulation on a Dask cluster (`--cluster local:N`, `--scheduler ADDRESS`): the numbers of a
`--jobs` run, whatever the workers; a worker killed mid-run; workers of another dtc or ruleset
refused; an unreachable scheduler; Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import distributed  # the dask extra, which `make test` installs
import pytest
from click.testing import CliRunner

from dtc import artifact as artifact_mod
from dtc.cli.main import cli
from dtc.cluster import Cluster, ClusterError, ClusterRefused, play_piece, run_on_cluster
from dtc.dicethrone.simulate import Tally, play_games

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::ResourceWarning",
                                        "ignore::pytest.PytestUnraisableExceptionWarning")


def run(args: list[str]):
    return CliRunner().invoke(cli, args)


@pytest.fixture(scope="module")
def local_cluster():
    """A local cluster of 2 worker processes the tests reach by its address."""
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=50)
    yield cluster
    cluster.close()


@pytest.mark.parametrize("args", [
    ["simulate", "druid", "duelist", "--games", "60", "--seed", "4", "--format", "json"],
    ["simulate", "--all", "--games", "10", "--seed", "1", "--format", "json"],
    ["valeria", "simulate", "--games", "40", "--seed", "2", "--format", "json"],
    ["adventure", "simulate", "--heroes", "druid,sun_elf", "--scenario", "1", "--games", "30", "--seed", "1",
     "--format", "json"],
    ["simulate", "--mode", "2v2", "--heroes", "druid,duelist,forgemaster,sun_elf", "--games", "10",
     "--format", "json"],
    ["adventure", "boss-vs-many", "mad king", "--heroes", "druid,sun_elf", "--games", "10",
     "--format", "json"],
])
def test_a_cluster_gives_the_numbers_of_one_process(args):
    """Issue 24: "the numbers are byte-identical to `--jobs` runs with the same seed, whatever the
    number of workers"."""
    alone = run(args + ["--jobs", "1"])
    spread = run(args + ["--cluster", "local:2"])
    assert alone.exit_code == 0, alone.output
    assert spread.exit_code == 0, spread.output
    assert spread.output == alone.output
    assert json.loads(spread.output)  # real numbers, not an empty answer


def test_a_running_scheduler_is_used_by_its_address(local_cluster):
    args = ["simulate", "druid", "sun_elf", "--games", "50", "--seed", "9", "--format", "json"]
    by_address = run(args + ["--scheduler", local_cluster.scheduler_address])
    assert by_address.exit_code == 0, by_address.output
    assert by_address.output == run(args).output


def pieces(count: int = 16) -> list[tuple]:
    return [([0, 1], 5, start, 4, "heuristic", None, None, "1v1") for start in range(0, 4 * count, 4)]


def test_a_worker_killed_mid_run_loses_no_game_and_counts_none_twice(compiled, local_cluster):
    """A worker process killed (SIGKILL) after the first piece is done: its pieces run elsewhere, and
    the tallies are those of an undisturbed run, piece by piece."""
    raw = artifact_mod.to_bytes(compiled.data)
    with distributed.Client(local_cluster) as client:
        pids = sorted(client.run(os.getpid).values())
    killed: list[int] = []

    def kill_one(_result) -> None:
        if not killed:
            killed.append(pids[0])
            os.kill(pids[0], signal.SIGKILL)

    work = pieces()
    got = run_on_cluster(Cluster(scheduler=local_cluster.scheduler_address), compiled, raw, play_games, work,
                         kill_one)
    assert killed
    expected = [play_games(compiled, *piece) for piece in work]
    assert [vars(t) for t in got] == [vars(t) for t in expected]
    total = Tally()
    for t in got:
        total.add(t)
    assert total.games == 4 * len(work)


def test_a_worker_of_another_dtc_version_is_refused(local_cluster):
    with distributed.Client(local_cluster) as client:
        client.run(lambda: setattr(sys.modules["dtc"], "__version__", "0.0.0-other"))
        try:
            result = run(["simulate", "druid", "duelist", "--games", "10", "--scheduler",
                          local_cluster.scheduler_address])
        finally:
            import dtc

            version = dtc.__version__
            client.run(lambda: setattr(sys.modules["dtc"], "__version__", version))
    assert result.exit_code == 2
    assert "runs dtc 0.0.0-other" in result.output and "install the same dtc on every worker" in result.output
    assert "Traceback" not in result.output


def test_a_ruleset_that_is_not_the_runs_is_refused(compiled, local_cluster):
    """Each piece names the ruleset hash it was made for; a worker given other bytes refuses it."""
    raw = artifact_mod.to_bytes(compiled.data)
    with pytest.raises(ClusterRefused, match="not the ruleset of the run"):
        play_piece(play_games, raw, "0" * 64, __import__("dtc").__version__, pieces(1)[0])

    class Other:  # the run's artifact as the client sees it, under another hash
        content_hash = "f" * 64

    with pytest.raises(ClusterError, match="a worker refused the work: the ruleset"):
        run_on_cluster(Cluster(scheduler=local_cluster.scheduler_address), Other(), raw, play_games,
                       pieces(1))


def test_an_unreachable_scheduler_is_one_line_and_exit_2():
    started = time.monotonic()
    result = run(["simulate", "druid", "duelist", "--games", "10", "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2
    assert result.output.startswith("error: cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert time.monotonic() - started < 60


@pytest.mark.parametrize("args, says", [
    (["--cluster", "local:2", "--scheduler", "tcp://127.0.0.1:8786"],
     "give --scheduler or --cluster, not both"),
    (["--cluster", "remote"], "write `local` (one worker per core) or `local:N`"),
    (["--cluster", "local:0"], "write `local`"),
])
def test_cluster_options_that_mean_nothing_are_refused(args, says):
    result = run(["simulate", "druid", "duelist", "--games", "10", *args])
    assert result.exit_code == 2 and says in result.output


def test_ctrl_c_cancels_the_clusters_work_and_exits_130(tmp_path):
    """Ctrl-C (SIGINT) during a cluster run: "interrupted", exit 130, the local cluster's workers gone."""
    proc = subprocess.Popen([sys.executable, "-m", "dtc", "simulate", "--all", "--games", "100000",
                             "--cluster", "local:2", "--format", "json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        time.sleep(8)  # the cluster up and playing
        children = _children(proc.pid)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:  # a run that did not stop is not left playing its 100,000 games (its own session)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert out == ""
    time.sleep(2)
    assert children and not [pid for pid in children if _alive(pid)]


def _children(pid: int) -> list[int]:
    found = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in found.split()]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split()[2] != "Z"
    except (FileNotFoundError, ProcessLookupError):  # gone before or while /proc was read
        return False
