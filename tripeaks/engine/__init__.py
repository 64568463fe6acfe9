"""The pure TriPeaks rules engine: no Django, no I/O, no globals that change."""
