"""`python -m dtc` runs the command-line interface."""

from dtc.cli.main import main

if __name__ == "__main__":  # not when a worker process (a Dask worker, spawned) imports it again
    main()
