"""`python -m dtc` runs the command-line interface."""

from dtc.cli.main import main

main()
