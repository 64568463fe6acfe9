"""`python -m tripeaks deal|solve|stats|bench|play ...`: see `tripeaks.cli`."""

from __future__ import annotations

import sys

from tripeaks.cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
