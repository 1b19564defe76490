"""``python -m accord``: the ``accord`` command."""

import sys

from .cli import main

sys.exit(main())
