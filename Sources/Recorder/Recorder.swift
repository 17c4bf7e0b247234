// The `Recorder` module; see docs/ARCHITECTURE.md.
