// The benchmark harness (issue: benchmarks). Prints its usage until benchmarks are added.
print("lifetrace-bench: no benchmarks yet")
