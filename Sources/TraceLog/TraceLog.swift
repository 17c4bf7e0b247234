// zlib wrapper and the trace file format; see docs/FORMAT.md.
