"""Drop-in replacements for peer tools' Python APIs (``accord.compat.seqeval``)."""

__all__: list[str] = []
