"""dtc: a toolchain for authoring, checking and playing dice-and-card board games."""

__version__ = "0.1.0"
