// The `Replay` module; see docs/ARCHITECTURE.md.
