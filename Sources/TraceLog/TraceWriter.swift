import TraceModel

/// Appends events to a `.lifetrace` file in compressed frames, crash-safely.
///
/// Events are encoded as they are appended and buffered; a full buffer (`Options.maxEventsPerFrame` events or
/// `Options.maxFrameBytes` raw bytes) or `flush()` compresses them into one frame written with one `write(2)`.
/// The writer never rewrites bytes it wrote earlier: a process killed mid-write loses at most the frame being
/// written, which `openForAppend(path:options:)` or `lifetrace verify --repair` cut off later. `close()` appends
/// the frame index and the footer.
///
/// Not thread-safe: one owner (the recorder's writer thread) calls it.
public final class TraceWriter {
    /// The largest raw payload of a frame, in bytes (64 MiB): readers refuse larger frames (docs/FORMAT.md §3),
    /// and `writeCheckpoint(_:)` refuses a larger payload with `invalidArgument`.
    public static let maximumFramePayload = Int(FrameHeader.maximumPayload)

    /// Frame size and compression settings.
    public struct Options: Sendable {
        /// A frame is written once it holds this many events (1 … 65,536, the most a reader accepts per frame).
        public var maxEventsPerFrame = 8192
        /// A frame is written once its raw (uncompressed) payload reaches this many bytes (1 … 32 MiB, half the
        /// 64 MiB a reader accepts per frame, so that the event that crosses it still fits).
        public var maxFrameBytes = 128 * 1024
        /// zlib level 0–9.
        public var compressionLevel: Int32 = 6

        public init() {}
    }

    /// The file's path as given.
    public let path: String
    public let options: Options
    public let header: TraceHeader
    /// What `openForAppend` cut off (a torn tail), or `nil` when nothing was lost.
    public let recovery: RecoveryReport?
    /// The timestamp of the last event appended (pending or written), `nil` before the first.
    @exclusivity(unchecked) public private(set) var lastTimestamp: UInt64?

    private let file: FileDescriptor
    private let deflater: Deflater
    // The properties marked `@exclusivity(unchecked)` are those `append(_:)` touches per event: a class's `var` costs
    // a dynamic exclusivity check per access, and the writer has one owner that never lends them out overlapping.
    @exclusivity(unchecked) private var encoder = EventEncoder()
    /// Every frame written (events, checkpoints, unknown kinds), for the index.
    private var written: [FrameInfo]
    @exclusivity(unchecked) private var writtenEvents: UInt64
    private var nextSequence: UInt64
    private var fileEnd: UInt64
    @exclusivity(unchecked) private var isClosed = false
    /// Set when a write failed: the file may end in a torn frame and the writer refuses further writes.
    @exclusivity(unchecked) private var failure: TraceError?

    /// Events in the file, including those appended but not yet written.
    public var eventCount: UInt64 { writtenEvents + UInt64(encoder.eventCount) }

    /// Events appended but not yet written to the file.
    public var pendingEventCount: Int { encoder.eventCount }

    /// Creates a new trace at `path` and writes its header. An existing file at `path` is replaced (truncated).
    /// The directory is fsynced so the new file's entry survives a crash; the header itself reaches the disk
    /// with the first `sync()` or `close()`.
    ///
    /// The writer holds an exclusive `flock(2)` on the file until `close()` (or its release): a second writer on
    /// the same file is refused, and an existing file is truncated only once the lock is held.
    ///
    /// - Throws: `TraceError` `.io` when the file cannot be created or written, or another writer holds it (the
    ///   file is left as it was); `.invalidArgument` for a trace id that is not 16 bytes or bad options.
    public init(creating path: String, header: TraceHeader, options: Options = .init()) throws {
        guard header.traceID.count == 16 else {
            throw TraceError(.invalidArgument, "trace id must be 16 bytes, got \(header.traceID.count)", file: path)
        }
        try Self.validate(options, path: path)
        var header = header
        header.formatMajor = TraceHeader.currentMajor
        header.formatMinor = TraceHeader.currentMinor
        self.path = path
        self.options = options
        self.header = header
        self.recovery = nil
        self.deflater = try Self.makeDeflater(options, path: path)
        let file = try FileDescriptor.open(path, .createTruncate)
        self.file = file
        let bytes = header.encoded()
        do {
            try file.lockForWriting()
            try file.truncate(to: 0)
            try file.writeAll(bytes)
        } catch {
            file.close()
            throw error
        }
        FileDescriptor.syncDirectory(of: path)
        written = []
        writtenEvents = 0
        nextSequence = 0
        fileEnd = UInt64(bytes.count)
    }

    private init(
        path: String, options: Options, header: TraceHeader, recovery: RecoveryReport?, file: FileDescriptor,
        deflater: Deflater, frames: [FrameInfo], events: UInt64, lastTimestamp: UInt64?, fileEnd: UInt64
    ) {
        self.path = path
        self.options = options
        self.header = header
        self.recovery = recovery
        self.file = file
        self.deflater = deflater
        // Format 1.x readers know only the byte-plane times layout: appending to such a file keeps to it.
        self.encoder = EventEncoder(timeLayout: header.formatMajor < 2 ? .planes : .split)
        self.written = frames
        self.writtenEvents = events
        self.lastTimestamp = lastTimestamp
        self.nextSequence = UInt64(frames.count)
        self.fileEnd = fileEnd
    }

    /// A writer released without `close()` writes its pending events (so nothing appended is lost) but no index:
    /// the file then reads like one whose process stopped, and the next `openForAppend` continues it.
    deinit {
        if !isClosed {
            if failure == nil { try? flush() }
            file.close()
        }
    }

    private static func validate(_ options: Options, path: String) throws {
        guard options.maxEventsPerFrame >= 1, options.maxEventsPerFrame <= Int(FrameHeader.maximumEvents),
              options.maxFrameBytes >= 1, options.maxFrameBytes <= Int(FrameHeader.maximumPayload / 2),
              (0...9).contains(options.compressionLevel)
        else {
            throw TraceError(.invalidArgument, "writer options out of range: \(options)", file: path)
        }
    }

    private static func makeDeflater(_ options: Options, path: String) throws -> Deflater {
        do {
            return try Deflater(level: options.compressionLevel)
        } catch {
            throw TraceError(.io, "cannot set up zlib: \(error)", file: path)
        }
    }

    /// Opens an existing trace to append to it.
    ///
    /// Validates the file, removes the index and footer of a cleanly closed file (derived data, written again
    /// on `close()`), cuts off a torn tail (reported in `recovery`), and continues the frame sequence numbers
    /// and event ordinals.
    ///
    /// The writer holds an exclusive `flock(2)` on the file from before it reads it until `close()` (or its
    /// release), so what it validates is what it appends to, and a second writer is refused.
    ///
    /// - Throws: `TraceError` as `TraceReader.init(path:)` does; `.io` when another writer holds the file or it
    ///   cannot be opened for writing (a file that is not a trace and is read-only gets the reader's error, such
    ///   as `.notATrace`, which says both);
    ///   `.corruptFrame` with the offset when the file is damaged in the middle (valid frames follow the damage:
    ///   appending would hide them, so this refuses); `.unsupportedVersion` for a file of a newer minor version
    ///   (this writer cannot keep its additions).
    public static func openForAppend(path: String, options: Options = .init()) throws -> TraceWriter {
        try validate(options, path: path)
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .readWrite)
        } catch let cannotWrite as TraceError {
            throw whatIsWrong(path: path, cannotWrite: cannotWrite)
        }
        do {
            try file.lockForWriting()
        } catch {
            file.close()
            throw error
        }
        let reader: TraceReader
        var recovery: RecoveryReport?
        do {
            reader = try TraceReader(path: path)
            if reader.header.formatMinor > TraceHeader.currentMinor {
                throw TraceError(
                    .unsupportedVersion,
                    "cannot append to a format \(reader.header.formatMajor).\(reader.header.formatMinor) file with a format \(TraceHeader.currentMajor).\(TraceHeader.currentMinor) writer",
                    file: path, offset: 8
                )
            }
            if let damage = reader.problems.last(where: { $0.code == .tornTail || $0.code == .corruptFrame }) {
                guard reader.damageIsTail else {
                    var refusal = damage
                    refusal.message = "refusing to append to a file damaged in the middle: \(damage.message)"
                    throw refusal
                }
                let cut = reader.dataEnd
                recovery = RecoveryReport(offset: cut, droppedBytes: reader.fileSize - cut, reason: damage.message)
            }
        } catch {
            file.close()
            throw error
        }
        let deflater: Deflater
        do {
            deflater = try makeDeflater(options, path: path)
        } catch {
            file.close()
            throw error
        }
        do {
            let size = try file.size()
            if size != reader.dataEnd {
                try file.truncate(to: reader.dataEnd)
                try file.sync()
            }
            let end = try file.seekToEnd()
            guard end == reader.dataEnd else {
                throw TraceError(.io, "file changed while opening for append (ends at \(end), expected \(reader.dataEnd))", file: path)
            }
        } catch {
            file.close()
            throw error
        }
        return TraceWriter(
            path: path, options: options, header: reader.header, recovery: recovery, file: file, deflater: deflater,
            frames: reader.allFrames, events: reader.eventCount, lastTimestamp: reader.frames.last?.lastTimestamp,
            fileEnd: reader.dataEnd
        )
    }

    /// Cuts a torn tail off the file at `path` in place, without appending anything.
    ///
    /// - Returns: What was cut, or `nil` when the file had no torn tail.
    /// - Throws: As `openForAppend(path:options:)`.
    public static func truncateTornTail(path: String) throws -> RecoveryReport? {
        // A sound file is left alone without opening it for writing (it may be read-only).
        guard try TraceReader(path: path).problems.contains(where: { $0.code == .tornTail || $0.code == .corruptFrame })
        else { return nil }
        // Locked, then read again: bytes a writer is still writing look like a torn tail to a reader.
        let file = try lockedForWriting(path)
        defer { file.close() }
        let reader = try TraceReader(path: path)
        guard let damage = reader.problems.last(where: { $0.code == .tornTail || $0.code == .corruptFrame }) else { return nil }
        guard reader.damageIsTail else {
            var refusal = damage
            refusal.message = "refusing to truncate a file damaged in the middle: \(damage.message)"
            throw refusal
        }
        let cut = reader.validEnd
        try file.truncate(to: cut)
        try file.sync()
        return RecoveryReport(offset: cut, droppedBytes: reader.fileSize - cut, reason: damage.message)
    }

    /// The error to report when `path` cannot be opened for writing (`cannotWrite`, e.g. a read-only file): if it
    /// cannot be read as a trace either, that comes first — it is what the user must fix, and making the file
    /// writable would not help — followed by the write error; else the write error alone.
    private static func whatIsWrong(path: String, cannotWrite: TraceError) -> TraceError {
        guard cannotWrite.code == .io else { return cannotWrite }
        do {
            _ = try TraceReader(path: path)
            return cannotWrite
        } catch var notATrace as TraceError where notATrace.code != .io {
            notATrace.message += "; nor can it be opened for writing (\(cannotWrite.message))"
            return notATrace
        } catch {
            return cannotWrite
        }
    }

    /// `path` opened for reading and writing under the writers' exclusive lock (`FileDescriptor.lockForWriting`).
    private static func lockedForWriting(_ path: String) throws -> FileDescriptor {
        let file = try FileDescriptor.open(path, .readWrite)
        do {
            try file.lockForWriting()
        } catch {
            file.close()
            throw error
        }
        return file
    }

    private func checkUsable() throws {
        if isClosed { throw TraceError(.writerClosed, "the writer is closed", file: path) }
        if let failure {
            throw TraceError(.writerClosed, "an earlier write failed (\(failure.message)); reopen the file for append to recover", file: path)
        }
    }

    /// Appends `event`, writing a frame when the buffer is full.
    ///
    /// - Throws: `TraceError` `.timestampWentBackwards` naming both timestamps when `event.timestamp` is earlier
    ///   than the previous event's (the event is not appended); `.io` when writing a full frame fails;
    ///   `.writerClosed` after `close()` or a failed write.
    public func append(_ event: Event) throws {
        try checkUsable()
        if let lastTimestamp, event.timestamp < lastTimestamp {
            throw TraceError(
                .timestampWentBackwards,
                "timestamp \(event.timestamp) ns is earlier than the previous event's \(lastTimestamp) ns",
                file: path, eventOrdinal: eventCount
            )
        }
        encoder.append(event)
        lastTimestamp = event.timestamp
        if encoder.eventCount >= options.maxEventsPerFrame || encoder.byteCount >= options.maxFrameBytes {
            try flush()
        }
    }

    /// Appends every event of `events` in order (see `append(_:)`); stops at the first that throws.
    public func append<S: Sequence>(contentsOf events: S) throws where S.Element == Event {
        for event in events { try append(event) }
    }

    /// Compresses the pending events into one frame and writes it with one `write(2)`. Does nothing when no event
    /// is pending. Does not fsync (see `sync()`).
    ///
    /// - Throws: `TraceError` `.io` when the write fails (the writer then refuses further writes).
    public func flush() throws {
        try checkUsable()
        guard encoder.eventCount > 0 else { return }
        let payload = encoder.payload()
        try writeFrame(
            kind: .events, firstOrdinal: writtenEvents, eventCount: UInt32(encoder.eventCount),
            firstTimestamp: encoder.firstTimestamp, lastTimestamp: encoder.lastTimestamp, raw: payload.bytes,
            blocks: payload.blocks
        )
        writtenEvents += UInt64(encoder.eventCount)
        encoder.reset()
    }

    /// Writes a checkpoint frame holding `payload` (opaque to this module), after flushing pending events.
    ///
    /// The checkpoint's state must cover every event with ordinal < `eventCount`; its `FrameInfo.firstOrdinal`
    /// is `eventCount` and its timestamps are `lastTimestamp` (0 when there are no events).
    public func writeCheckpoint(_ payload: [UInt8]) throws {
        try flush()
        let timestamp = lastTimestamp ?? 0
        try writeFrame(
            kind: .checkpoint, firstOrdinal: writtenEvents, eventCount: 0, firstTimestamp: timestamp,
            lastTimestamp: timestamp, raw: payload
        )
    }

    /// Flushes the kernel's buffers for the file to the disk (`fsync(2)`). Pending events are not written first;
    /// call `flush()` before to include them.
    public func sync() throws {
        try checkUsable()
        do {
            try file.sync()
        } catch let error as TraceError {
            failure = error
            throw error
        }
    }

    /// Writes pending events, the frame index and the footer (one `write(2)`), fsyncs and closes the file.
    /// Calling it again does nothing.
    ///
    /// - Throws: `TraceError` `.io` when a write or the fsync fails; the file is closed anyway, and what was
    ///   written before stays readable.
    public func close() throws {
        guard !isClosed else { return }
        defer {
            isClosed = true
            file.close()
        }
        if let failure { throw failure }
        try flush()
        let footer = TraceFooter(indexOffset: fileEnd, eventCount: writtenEvents, frameCount: UInt32(written.count))
        try writeFrame(
            kind: .index, firstOrdinal: writtenEvents, eventCount: 0, firstTimestamp: 0, lastTimestamp: 0,
            raw: FrameIndexCodec.encode(written), trailer: footer.encoded()
        )
        try file.sync()
    }

    /// Compresses `raw`, prefixes the frame header and writes both (and `trailer`) with one write.
    private func writeFrame(
        kind: FrameKind, firstOrdinal: UInt64, eventCount: UInt32, firstTimestamp: UInt64, lastTimestamp: UInt64,
        raw: [UInt8], blocks: [Deflater.Block] = [], trailer: [UInt8] = []
    ) throws {
        guard raw.count <= Int(FrameHeader.maximumPayload) else {
            throw TraceError(.invalidArgument, "\(kind) frame payload of \(raw.count) bytes exceeds the 64 MiB limit per frame", file: path)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(FrameHeader.length + raw.count / 2 + 64 + trailer.count)
        bytes.append(contentsOf: [UInt8](repeating: 0, count: FrameHeader.length))
        var compression = FrameHeader.compressionDeflate
        do {
            try deflater.compress(raw, blocks: blocks, appendingTo: &bytes)
        } catch {
            throw TraceError(.io, "cannot compress a \(kind) frame: \(error)", file: path)
        }
        if bytes.count - FrameHeader.length >= raw.count {
            bytes.removeLast(bytes.count - FrameHeader.length)
            bytes.append(contentsOf: raw)
            compression = FrameHeader.compressionStored
        }
        let storedLength = bytes.count - FrameHeader.length
        let info = FrameInfo(
            offset: fileEnd, kind: kind, sequence: nextSequence, firstOrdinal: firstOrdinal, eventCount: eventCount,
            firstTimestamp: firstTimestamp, lastTimestamp: lastTimestamp, rawLength: UInt32(raw.count),
            compressedLength: UInt32(storedLength)
        )
        let header = FrameHeader(info: info, compression: compression, payloadCRC: CRC32.checksum(bytes[FrameHeader.length...]))
        bytes.replaceSubrange(0..<FrameHeader.length, with: header.encoded())
        bytes.append(contentsOf: trailer)
        do {
            try file.writeAll(bytes)
        } catch let error as TraceError {
            failure = error
            throw error
        }
        fileEnd += UInt64(bytes.count)
        nextSequence += 1
        if kind != .index { written.append(info) }
    }
}

@available(*, unavailable, message: "a TraceWriter has one owner; hand events to it through a queue")
extension TraceWriter: Sendable {}
