"""``python -m hookwire``: the ``hookwire`` command line."""

from hookwire.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
