// The `Simulator` module; see docs/ARCHITECTURE.md.
