// The `ConsoleImport` module; see docs/ARCHITECTURE.md.
