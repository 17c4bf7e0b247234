// Test doubles: a manual clock, deterministic ids, an in-memory sink.
