// The `Audit` module; see docs/ARCHITECTURE.md.
