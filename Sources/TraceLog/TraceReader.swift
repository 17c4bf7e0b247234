import Synchronization
import TraceModel

/// Reads a `.lifetrace` file: the header, the frame list, events frame by frame, checkpoint payloads.
///
/// Opening reads the header and, when the file was closed cleanly, the index written before the footer; the
/// index is checked for consistency (contiguous frames, ordinals, sequence numbers) and every events frame it
/// lists has its header and payload CRC checked (payloads are not inflated until asked for; checkpoints are
/// checked when read). Without a valid footer and index, or when a listed events frame fails its CRC, the reader walks every frame header and checks every
/// payload CRC, stopping at the first damage: `frames` then lists the valid prefix (the frames before the first
/// damaged one, never a frame after it) and `problems` says where and why it ends. `verify()` checks everything regardless of the index.
///
/// Thread safety: all stored state is immutable except the zlib stream, which a mutex guards; one reader may be
/// shared between threads (`pread` does not move a shared file position).
public final class TraceReader: Sendable {
    /// The file's path as given.
    public let path: String
    public let header: TraceHeader
    /// Length of the file header in bytes (the first frame starts here).
    public let headerLength: UInt64
    /// Events frames of the valid prefix, in order.
    public let frames: [FrameInfo]
    /// Checkpoint frames of the valid prefix, in order.
    public let checkpoints: [FrameInfo]
    /// Every frame of the valid prefix except the index: events, checkpoints and kinds this version does not know.
    public let allFrames: [FrameInfo]
    /// Whether the file ends with a valid footer and an index that agrees with the frames.
    public let isCleanlyClosed: Bool
    /// Whether the file ends with a valid footer, even when its index is unusable or lists a damaged frame, or has
    /// a valid footer followed by junk (a torn tail after the footer: `problems` says how many bytes).
    public let hasFooter: Bool
    /// What is wrong with the file, found while opening: an invalid index (rebuilt), damage that ends the valid
    /// prefix (with its offset), sequence or time-order problems between frames. Empty for a healthy file.
    public let problems: [TraceError]
    /// Events in the valid prefix.
    public let eventCount: UInt64
    /// The damage that ends the valid prefix (`.corruptFrame` or `.tornTail`, with its offset), or `nil` when the
    /// prefix is the whole file. The events of `frames` are the events before it.
    public var damage: TraceError? {
        problems.first { $0.code == .corruptFrame || $0.code == .tornTail }
    }
    /// The file's size in bytes when it was opened.
    public let fileSize: UInt64
    /// Where the valid prefix of frames ends (after the footer for a cleanly closed file).
    public let validEnd: UInt64
    /// Where the last frame other than the index ends: where a writer appending to this file continues.
    let dataEnd: UInt64
    /// Whether the damage that ends the valid prefix (if any) has nothing valid after it.
    let damageIsTail: Bool

    let file: FileDescriptor
    private let inflater: Mutex<Inflater>
    /// The file as it was while opening checked the payload CRC of every events frame in `frames` (`nil` when it
    /// changed meanwhile). While the file is in this state, reading one of those frames again (`cursor(for:)`)
    /// does not compute its payload CRC a second time: the CRC is checked once per frame, and again only if the
    /// file changed since (a frame read from a changed file is checked as at opening).
    private let checkedState: FileDescriptor.State?

    /// Opens the trace at `path`.
    ///
    /// - Throws: `TraceError` with the path set: `.emptyFile`, `.notATrace`, `.corruptHeader` (cut short or CRC
    ///   mismatch, with the offset), `.unsupportedVersion` (a newer format major), `.io` (cannot open or read).
    ///   Damaged frames do not throw: they end the valid prefix and are listed in `problems`.
    public init(path: String) throws {
        self.path = path
        let file = try FileDescriptor.open(path, .readOnly)
        var ownsFile = true
        defer { if ownsFile { file.close() } }
        do {
            let stateBefore = try file.state()
            let size = UInt64(Swift.max(0, stateBefore.size))
            // A file of size 0 is read anyway: /proc/self/status and its like report 0 bytes and hold text, which
            // is "not a trace", not "an empty file".
            var prefix = try file.read(count: size == 0 ? 4096 : Int(min(size, 4096)), at: 0)
            if size == 0, !prefix.isEmpty, prefix.starts(with: TraceHeader.magic) {
                throw TraceError(.notATrace, "the file reports a size of 0 bytes but holds data (a /proc or other special file); a trace is read from a regular file", offset: 0)
            }
            if let declared = TraceHeader.declaredLength(prefix: prefix), declared > prefix.count,
               declared <= TraceHeader.maximumLength, UInt64(declared) <= size
            {
                prefix = try file.read(count: declared, at: 0)
            }
            let (header, headerLength) = try TraceHeader.decode(prefix)
            self.header = header
            self.headerLength = UInt64(headerLength)
            self.fileSize = size
            self.inflater = Mutex(try Inflater())
            self.file = file

            var problems: [TraceError] = []
            var indexed: [FrameInfo]?
            var footerFound = false
            do {
                indexed = try Self.readIndex(file, headerLength: UInt64(headerLength), fileSize: size)
                footerFound = indexed != nil
            } catch let error as TraceError {
                problems.append(error)
                footerFound = error.code == .corruptIndex
            }
            // The index gives the layout, but a frame it lists can still be damaged: check every listed events
            // frame's header and payload CRC (no inflating), and on the first failure walk instead, so that the
            // valid prefix ends before the damaged frame exactly as for a file without a footer.
            if let listed = indexed, !(try Self.payloadsMatch(listed, file: file)) {
                indexed = nil
            }
            if let indexed {
                allFrames = indexed
                isCleanlyClosed = true
                validEnd = size
                dataEnd = indexed.last?.endOffset ?? UInt64(headerLength)
                damageIsTail = false
            } else {
                let scan = try FrameScan.walk(file, start: UInt64(headerLength), fileSize: size, verifyPayloads: true)
                allFrames = scan.frames
                isCleanlyClosed = false
                validEnd = scan.validEnd
                dataEnd = scan.dataEnd
                damageIsTail = scan.failureIsTail
                footerFound = footerFound || scan.hasFooter
                problems += scan.orderProblems
                if let failure = scan.failure { problems.append(failure) }
            }
            hasFooter = footerFound
            self.problems = problems.map { $0.in(file: path) }
            frames = allFrames.filter { $0.kind == .events }
            checkpoints = allFrames.filter { $0.kind == .checkpoint }
            eventCount = frames.reduce(0) { $0 + UInt64($1.eventCount) }
            let stateAfter = try file.state()
            checkedState = stateAfter == stateBefore ? stateAfter : nil
            ownsFile = false
        } catch let error as TraceError {
            throw error.in(file: path)
        } catch let error as ZlibError {
            throw TraceError(.io, "cannot set up zlib: \(error)", file: path)
        }
    }

    deinit {
        file.close()
    }

    /// The index frame's entries when the file ends with a valid footer whose index agrees with itself; `nil`
    /// when there is no footer; throws `.corruptIndex` when a footer is there but something does not hold.
    static func readIndex(_ file: FileDescriptor, headerLength: UInt64, fileSize: UInt64) throws -> [FrameInfo]? {
        let footerLength = UInt64(TraceFooter.length)
        guard fileSize >= headerLength + UInt64(FrameHeader.length) + footerLength else { return nil }
        let footerOffset = fileSize - footerLength
        guard let footer = TraceFooter.decode(try file.read(count: TraceFooter.length, at: footerOffset)) else { return nil }
        func bad(_ why: String) -> TraceError {
            TraceError(.corruptIndex, "footer present but the index is not usable (\(why)); rebuilt it by walking the frames", offset: footer.indexOffset)
        }
        guard footer.indexOffset >= headerLength, footer.indexOffset <= footerOffset - UInt64(FrameHeader.length) else {
            throw bad("footer points outside the file")
        }
        let headerBytes = try file.read(count: FrameHeader.length, at: footer.indexOffset)
        let indexHeader: FrameHeader
        do {
            indexHeader = try FrameHeader.decode(headerBytes, at: 0, fileOffset: footer.indexOffset)
        } catch let error as TraceError {
            throw bad(error.message)
        }
        guard indexHeader.info.kind == .index, indexHeader.info.endOffset == footerOffset else {
            throw bad("the frame at the footer's offset is not an index frame ending at the footer")
        }
        let stored = try file.read(count: Int(indexHeader.info.compressedLength), at: footer.indexOffset + UInt64(FrameHeader.length))
        guard CRC32.checksum(stored) == indexHeader.payloadCRC else { throw bad("index payload CRC mismatch") }
        let payload: [UInt8]
        do {
            payload = try inflate(stored[...], header: indexHeader)
        } catch {
            throw bad("index payload does not inflate: \(error)")
        }
        guard let entries = FrameIndexCodec.decode(payload) else { throw bad("index payload is malformed") }
        guard entries.count == Int(footer.frameCount) else { throw bad("footer counts \(footer.frameCount) frames, the index \(entries.count)") }
        var expectedOffset = headerLength
        var expectedOrdinal: UInt64 = 0
        var lastTimestamp: UInt64 = 0
        for (position, entry) in entries.enumerated() {
            guard entry.offset == expectedOffset else { throw bad("entry \(position) at offset \(entry.offset), expected \(expectedOffset)") }
            guard entry.sequence == UInt64(position) else { throw bad("entry \(position) has sequence \(entry.sequence)") }
            guard entry.kind != .index else { throw bad("entry \(position) is an index frame") }
            if entry.kind == .events || entry.kind == .checkpoint {
                guard entry.firstOrdinal == expectedOrdinal else { throw bad("entry \(position) starts at event \(entry.firstOrdinal), expected \(expectedOrdinal)") }
            }
            if entry.kind == .events {
                guard entry.firstTimestamp >= lastTimestamp, entry.firstTimestamp <= entry.lastTimestamp else {
                    throw bad("entry \(position) goes back in time")
                }
                lastTimestamp = entry.lastTimestamp
                expectedOrdinal += UInt64(entry.eventCount)
            }
            expectedOffset = entry.endOffset
        }
        guard expectedOffset == footer.indexOffset else { throw bad("entries end at \(expectedOffset), the index frame is at \(footer.indexOffset)") }
        guard indexHeader.info.sequence == UInt64(entries.count) else { throw bad("index frame sequence \(indexHeader.info.sequence)") }
        guard footer.eventCount == expectedOrdinal else { throw bad("footer counts \(footer.eventCount) events, the index \(expectedOrdinal)") }
        return entries
    }

    /// Whether every events frame in `frames` has a valid header equal to its entry and a payload matching its
    /// CRC. Other frames are not read: a damaged checkpoint hides no events (`checkpointPayload(_:)` reports it
    /// and the replayer falls back to an earlier one).
    static func payloadsMatch(_ frames: [FrameInfo], file: FileDescriptor) throws -> Bool {
        for frame in frames where frame.kind == .events {
            let bytes = try file.read(count: FrameHeader.length + Int(frame.compressedLength), at: frame.offset)
            guard bytes.count == FrameHeader.length + Int(frame.compressedLength),
                  let header = try? FrameHeader.decode(bytes, at: 0, fileOffset: frame.offset),
                  header.info == frame,
                  CRC32.checksum(bytes[FrameHeader.length...]) == header.payloadCRC
            else { return false }
        }
        return true
    }

    /// Decompresses a stored payload with a throwaway inflater (only used for the index while opening).
    private static func inflate(_ stored: ArraySlice<UInt8>, header: FrameHeader) throws -> [UInt8] {
        if header.compression == FrameHeader.compressionStored { return Array(stored) }
        return try Inflater().decompress(stored, expectedLength: Int(header.info.rawLength))
    }

    /// Reads a frame's header and payload, checks both CRCs and that the header matches `frame`, and returns the
    /// raw (decompressed) payload.
    ///
    /// - Throws: `TraceError` `.corruptFrame` (or `.tornTail`) at the frame's offset.
    func rawPayload(of frame: FrameInfo) throws -> [UInt8] {
        let (payload, isStored) = try checkedPayload(of: frame)
        if isStored { return Array(payload) }
        do {
            return try inflater.withLock { try $0.decompress(payload, expectedLength: Int(frame.rawLength)) }
        } catch let error as ZlibError {
            throw inflateFailure(error, frame)
        }
    }

    /// `rawPayload(of:)` into a decoder's storage: inflated straight into it (no zero fill, no copy).
    func payloadStorage(of frame: FrameInfo) throws -> StreamReader.Storage {
        let (payload, isStored) = try checkedPayload(of: frame)
        if isStored { return StreamReader.Storage(Array(payload)) }
        let storage = StreamReader.Storage(uninitializedCount: Int(frame.rawLength))
        // The inflater writes into the storage only during the call, under the lock (the address crosses into the
        // lock's closure as a number: a pointer would tie the inflater to this task's region).
        let address = UInt(bitPattern: storage.base)
        do {
            try inflater.withLock { inflater in
                try inflater.decompress(payload, into: UnsafeMutablePointer(bitPattern: address)!, expectedLength: Int(frame.rawLength))
            }
        } catch let error as ZlibError {
            throw inflateFailure(error, frame)
        }
        return storage
    }

    /// The checks of `rawPayload(of:)` before inflating: the frame's stored payload, and whether it is stored
    /// uncompressed.
    private func checkedPayload(of frame: FrameInfo) throws -> (payload: ArraySlice<UInt8>, isStored: Bool) {
        do {
            let bytes = try file.read(count: FrameHeader.length + Int(frame.compressedLength), at: frame.offset)
            let header = try FrameHeader.decode(bytes, at: 0, fileOffset: frame.offset)
            guard header.info == frame else {
                throw TraceError(.corruptFrame, "frame header does not match the index entry for this offset", offset: frame.offset)
            }
            guard bytes.count == FrameHeader.length + Int(frame.compressedLength) else {
                throw TraceError(.tornTail, "file ends inside the frame payload", offset: frame.offset)
            }
            let stored = bytes[FrameHeader.length...]
            if !(try wasChecked(frame)) {
                let actual = CRC32.checksum(stored)
                guard actual == header.payloadCRC else {
                    throw TraceError(
                        .corruptFrame,
                        "\(frame.kind) frame \(frame.sequence): payload CRC mismatch (stored \(hex(header.payloadCRC)), computed \(hex(actual)))",
                        offset: frame.offset
                    )
                }
            }
            return (stored, header.compression == FrameHeader.compressionStored)
        } catch let error as TraceError {
            throw error.in(file: path)
        }
    }

    /// Whether opening checked `frame`'s payload CRC (an events frame of `frames`) and the file has not changed
    /// since (`checkedState`).
    private func wasChecked(_ frame: FrameInfo) throws -> Bool {
        guard frame.kind == .events, let checkedState else { return false }
        var low = 0
        var high = frames.count
        while low < high {
            let middle = (low + high) / 2
            if frames[middle].offset < frame.offset { low = middle + 1 } else { high = middle }
        }
        guard low < frames.count, frames[low] == frame else { return false }
        return try file.state() == checkedState
    }

    /// The error of a payload that does not inflate.
    private func inflateFailure(_ error: ZlibError, _ frame: FrameInfo) -> TraceError {
        TraceError(.corruptFrame, "\(frame.kind) frame \(frame.sequence): payload does not inflate: \(error.message)", offset: frame.offset)
            .in(file: path)
    }

    /// Decodes the events of an events frame.
    ///
    /// - Returns: `frame.eventCount` events with ordinals from `frame.firstOrdinal`.
    /// - Throws: `TraceError` `.corruptFrame` with the frame's offset (and the event ordinal when one event is
    ///   bad) when a CRC fails or the payload does not decode; `.invalidArgument` for a frame of another kind.
    public func decodeFrame(_ frame: FrameInfo) throws -> [Event] {
        var cursor = try cursor(for: frame)
        var events: [Event] = []
        events.reserveCapacity(Int(frame.eventCount))
        while let event = try cursor.nextEvent() { events.append(event) }
        return events
    }

    /// A cursor that decodes the events of an events frame one at a time (see `FrameCursor`).
    ///
    /// Reads the frame and checks its CRCs and its payload's stream table now; the events are decoded by
    /// `FrameCursor.next()`. The payload CRC of a frame of `frames` is not computed again while the file is as
    /// it was when opening checked it (same device, inode, size and modification time): once per frame.
    ///
    /// - Throws: `TraceError` `.corruptFrame` (or `.tornTail`) with the frame's offset when a CRC fails or the
    ///   stream table is malformed; `.invalidArgument` for a frame of another kind.
    public func cursor(for frame: FrameInfo) throws -> FrameCursor {
        guard frame.kind == .events else {
            throw TraceError(.invalidArgument, "\(frame.kind) frame \(frame.sequence) holds no events", file: path, offset: frame.offset)
        }
        let payload = try payloadStorage(of: frame)
        do {
            let decoder = try EventDecoder(
                storage: payload, firstTimestamp: frame.firstTimestamp, lastTimestamp: frame.lastTimestamp,
                firstOrdinal: frame.firstOrdinal, eventCount: Int(frame.eventCount)
            )
            return FrameCursor(decoder: decoder, frame: frame, path: path)
        } catch var error as TraceError {
            error.message = "events frame \(frame.sequence): \(error.message)"
            error.offset = frame.offset
            throw error.in(file: path)
        }
    }

    /// The opaque payload of a checkpoint frame, as given to `TraceWriter.writeCheckpoint(_:)`.
    ///
    /// - Throws: `TraceError` `.corruptFrame` with the frame's offset when a CRC fails, so the replayer can fall
    ///   back to an earlier checkpoint; `.invalidArgument` for a frame of another kind.
    public func checkpointPayload(_ frame: FrameInfo) throws -> [UInt8] {
        guard frame.kind == .checkpoint else {
            throw TraceError(.invalidArgument, "\(frame.kind) frame \(frame.sequence) is not a checkpoint", file: path, offset: frame.offset)
        }
        return try rawPayload(of: frame)
    }

    /// The events of the valid prefix from events frame `index` on, decoded one frame at a time.
    public func events(fromFrame index: Int = 0) -> EventIterator {
        EventIterator(reader: self, frameIndex: index)
    }

    /// Calls `body` with every event of the valid prefix from events frame `index` on, in order.
    ///
    /// Decodes one event at a time (`FrameCursor`), holding no frame's events in memory.
    ///
    /// - Throws: The `TraceError` of the first event that fails to decode, or of a frame whose CRC or stream
    ///   table is bad (after the events before it were passed to `body`), or whatever `body` throws.
    public func forEachEvent(fromFrame index: Int = 0, _ body: (_ ordinal: UInt64, _ event: Event) throws -> Void) throws {
        for position in max(0, index)..<frames.count {
            let frame = frames[position]
            var cursor = try cursor(for: frame)
            var ordinal = frame.firstOrdinal
            while let event = try cursor.nextEvent() {
                try body(ordinal, event)
                ordinal += 1
            }
        }
    }

    /// The position in `frames` of the first events frame whose last timestamp is ≥ `timestamp`: the frame that
    /// holds the first event at or after `timestamp`. `nil` when every event is earlier.
    ///
    /// - Parameter timestamp: Nanoseconds on the trace's monotonic clock.
    public func frameIndex(containing timestamp: UInt64) -> Int? {
        var low = 0
        var high = frames.count
        while low < high {
            let middle = (low + high) / 2
            if frames[middle].lastTimestamp < timestamp {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < frames.count ? low : nil
    }

    /// The position in `checkpoints` of the last checkpoint covering only events with ordinal ≤ `ordinal`
    /// (its `firstOrdinal ≤ ordinal`), or `nil` when there is none.
    public func checkpointIndex(atOrBefore ordinal: UInt64) -> Int? {
        var low = 0
        var high = checkpoints.count
        while low < high {
            let middle = (low + high) / 2
            if checkpoints[middle].firstOrdinal <= ordinal {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low > 0 ? low - 1 : nil
    }

    /// The first and last event timestamps of the valid prefix, or `nil` when there are no events.
    public var timeSpan: ClosedRange<UInt64>? {
        guard let first = frames.first, let last = frames.last else { return nil }
        // Frames out of time order (reported in `problems`) must not make an inverted range.
        let lower = first.firstTimestamp <= last.lastTimestamp ? first.firstTimestamp : frames.map(\.firstTimestamp).min()!
        let upper = frames.map(\.lastTimestamp).max()!
        return Swift.min(lower, upper)...upper
    }

    /// Bytes of the valid prefix's events frames before compression and as stored (payloads only).
    public var payloadBytes: (raw: UInt64, compressed: UInt64) {
        frames.reduce((0, 0)) { ($0.0 + UInt64($1.rawLength), $0.1 + UInt64($1.compressedLength)) }
    }
}
