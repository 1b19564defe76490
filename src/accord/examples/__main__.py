"""``python -m accord.examples``: the sample's gold and system paths, on one line (``accord score $(python -m
accord.examples)``)."""

from . import GOLD, SYSTEM

print(GOLD, SYSTEM)
