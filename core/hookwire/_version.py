"""The one place hookwire's version is written (hatch reads it for the distribution)."""

__version__ = "0.1.0"
