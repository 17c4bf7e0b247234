// Peak resident memory of this process, for the memory benchmark.

#if canImport(Glibc)
import Glibc
#endif

/// Reads and resets the process's peak resident set size.
///
/// Linux keeps the high-water mark in `/proc/self/status` (`VmHWM`); writing `5` to `/proc/self/clear_refs`
/// (Linux 4.0+) resets it to the current RSS, so a benchmark can measure the peak of one phase of the run rather
/// than of the whole process. Elsewhere, or if the reset is refused, `getrusage`'s `ru_maxrss` (the lifetime
/// peak) is used and the figure says so.
enum PeakMemory {
    /// Resets the high-water mark. Returns false when the kernel refused (the figure is then the lifetime peak).
    @discardableResult
    static func reset() -> Bool {
        guard let file = fopen("/proc/self/clear_refs", "w") else { return false }
        defer { fclose(file) }
        return fputs("5", file) >= 0
    }

    /// The peak resident set size since the last `reset()`, in bytes.
    static func peakBytes() -> Int {
        if let kibibytes = statusField("VmHWM:") { return kibibytes * 1024 }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024
    }

    /// The current resident set size, in bytes (0 when unknown).
    static func currentBytes() -> Int {
        (statusField("VmRSS:") ?? 0) * 1024
    }

    /// A `kB` field of `/proc/self/status`.
    private static func statusField(_ name: String) -> Int? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix(name) else { continue }
            let digits = text.dropFirst(name.count).filter(\.isNumber)
            return Int(digits)
        }
        return nil
    }
}
