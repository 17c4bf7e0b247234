/// Setting the file header of a trace after its events are written, for writers that learn the header's
/// fields only at the end of their input (`lifetrace import` streams a log: its trace id hashes the whole input,
/// and whether any time was synthetic is known at the last line).
extension TraceWriter {
    /// Replaces the file header of the closed trace at `path` with `header`, in place.
    ///
    /// Nothing after the header depends on its fields (frames, index and footer hold file offsets, which stay
    /// valid because the new header has the same length), so the file is then byte for byte what a writer
    /// created with `header` would have written. Meant for a file no reader has yet (a temporary file renamed
    /// into place afterwards): the rewrite is one `write(2)` at offset 0 followed by `fsync`, not atomic.
    ///
    /// - Parameters:
    ///   - path: A trace written by `TraceWriter` and closed.
    ///   - header: The new header; its format version is set to this library's, as `init(creating:header:)` does.
    ///     Its producer must have the same UTF-8 length as the file's (the header length must not change).
    /// - Throws: `TraceError` `.io` when the file cannot be opened, read or written; `.notATrace` when it does
    ///   not start with a trace header; `.invalidArgument` when the new header's length differs or its trace id
    ///   is not 16 bytes.
    public static func rewriteHeader(of path: String, with header: TraceHeader) throws {
        guard header.traceID.count == 16 else {
            throw TraceError(.invalidArgument, "trace id must be 16 bytes, got \(header.traceID.count)", file: path)
        }
        var header = header
        header.formatMajor = TraceHeader.currentMajor
        header.formatMinor = TraceHeader.currentMinor
        let bytes = header.encoded()
        let file = try FileDescriptor.open(path, .readWrite)
        defer { file.close() }
        guard let length = TraceHeader.declaredLength(prefix: try file.read(count: 16, at: 0)) else {
            throw TraceError(.notATrace, "not a Lifetrace trace (the file does not start with the trace magic)", file: path, offset: 0)
        }
        guard length == bytes.count else {
            throw TraceError(
                .invalidArgument, "the new header is \(bytes.count) bytes, the file's is \(length): it cannot be replaced in place",
                file: path, offset: 12)
        }
        try file.writeAll(bytes)
        try file.sync()
    }
}
