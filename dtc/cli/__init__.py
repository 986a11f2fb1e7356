"""The `dtc` command line: thin commands over the stages in `dtc`."""
