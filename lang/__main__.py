"""``python -m lang update``: add the messages found in the code to every catalog."""

from __future__ import annotations

import sys

from lang import update

if __name__ == "__main__":
    if sys.argv[1:] != ["update"]:
        print("usage: python -m lang update", file=sys.stderr)
        sys.exit(2)
    update()
