"""``python -m accord.cli``: the ``accord`` command."""

import sys

from . import main

sys.exit(main())
