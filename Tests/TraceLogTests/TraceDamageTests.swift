import LifetraceTestSupport
import Testing
import TraceModel

@testable import TraceLog

@Suite("Damaged, cut and foreign files")
struct TraceDamageTests {
    /// A small cleanly closed trace: 40 events in frames of 6, a checkpoint after 20.
    static func smallTrace(in directory: TemporaryDirectory) throws -> (path: String, bytes: [UInt8], events: [Event], reader: TraceReader) {
        let path = directory.file("small.lifetrace")
        let events = RandomEvents.make(count: 40, seed: 77)
        try TraceFiles.write(events, to: path, eventsPerFrame: 6, checkpointAfter: 20)
        return (path, try TraceFiles.bytes(path), events, try TraceReader(path: path))
    }

    @Test("a file cut at every byte reads back as its longest valid prefix, and appending to it works")
    func truncateEveryOffset() throws {
        let directory = TemporaryDirectory()
        let trace = try Self.smallTrace(in: directory)
        let headerLength = Int(trace.reader.headerLength)
        let cutPath = directory.file("cut.lifetrace")
        let extra = Event(timestamp: trace.events.last!.timestamp + 1, .recorder(.note("after recovery")))
        for length in 0..<trace.bytes.count {
            try TraceFiles.put(Array(trace.bytes[0..<length]), to: cutPath)
            if length < headerLength {
                let error = try #require(throws: TraceError.self) { try TraceReader(path: cutPath) }
                #expect(error.code == (length == 0 ? .emptyFile : .corruptHeader), "length \(length)")
                #expect(error.file == cutPath)
                continue
            }
            let reader = try TraceReader(path: cutPath)
            let complete = trace.reader.frames.filter { $0.endOffset <= UInt64(length) }
            let expectedCount = complete.reduce(0) { $0 + Int($1.eventCount) }
            let read = TraceFiles.readAll(reader)
            #expect(read.error == nil, "length \(length)")
            #expect(read.events == Array(trace.events.prefix(expectedCount)), "length \(length)")
            #expect(!reader.isCleanlyClosed)
            let indexEnd = trace.bytes.count - TraceFooter.length
            let endsOnFrame = length == headerLength || length == indexEnd
                || trace.reader.allFrames.contains { $0.endOffset == UInt64(length) }
            #expect(reader.problems.isEmpty == endsOnFrame, "length \(length): \(reader.problems)")

            let writer = try TraceWriter.openForAppend(path: cutPath)
            #expect(writer.eventCount == UInt64(expectedCount))
            #expect((writer.recovery == nil) == endsOnFrame, "length \(length)")
            try writer.append(extra)
            try writer.close()
            let reopened = try TraceReader(path: cutPath)
            #expect(reopened.isCleanlyClosed)
            #expect(TraceFiles.readAll(reopened).events == Array(trace.events.prefix(expectedCount)) + [extra], "length \(length)")
            #expect(try reopened.verify().problems.isEmpty, "length \(length)")
        }
    }

    @Test("a bit flip anywhere is caught with the damaged frame's offset; the events before it stay readable")
    func bitFlips() throws {
        let directory = TemporaryDirectory()
        let trace = try Self.smallTrace(in: directory)
        let flippedPath = directory.file("flipped.lifetrace")
        let headerLength = Int(trace.reader.headerLength)
        for offset in 0..<trace.bytes.count {
            var bytes = trace.bytes
            bytes[offset] ^= UInt8(1) << UInt8(offset % 8)
            try TraceFiles.put(bytes, to: flippedPath)
            if offset < headerLength {
                let error = try #require(throws: TraceError.self) { try TraceReader(path: flippedPath) }
                #expect(error.offset != nil, "offset \(offset)")
                #expect([.notATrace, .corruptHeader, .unsupportedVersion].contains(error.code), "offset \(offset): \(error)")
                continue
            }
            let reader = try TraceReader(path: flippedPath)
            let report = try reader.verify()
            #expect(!report.problems.isEmpty, "offset \(offset)")
            let damaged = trace.reader.allFrames.first { UInt64(offset) >= $0.offset && UInt64(offset) < $0.endOffset }
            let read = TraceFiles.readAll(reader)
            if let damaged {
                // Every event of the frames before the damaged one, then nothing (events frames), or everything
                // (a damaged checkpoint does not hide events).
                let before = trace.reader.frames.filter { $0.endOffset <= damaged.offset }.reduce(0) { $0 + Int($1.eventCount) }
                if damaged.kind == .events {
                    #expect(read.events == Array(trace.events.prefix(before)), "offset \(offset)")
                    let error = read.error ?? reader.problems.first { $0.code == .corruptFrame || $0.code == .tornTail }
                    #expect(error?.offset == damaged.offset, "offset \(offset): \(String(describing: error))")
                } else {
                    #expect(read.events == trace.events, "offset \(offset)")
                    #expect(throws: TraceError.self) { try reader.checkpointPayload(reader.checkpoints.first ?? damaged) }
                }
                #expect(report.problems.contains { $0.offset == damaged.offset }, "offset \(offset): \(report.problems)")
            } else {
                // The index frame or the footer: derived data; every event is still there.
                #expect(read.events == trace.events, "offset \(offset)")
                #expect(!reader.isCleanlyClosed, "offset \(offset)")
            }
        }
    }

    @Test("damage in the middle of a file without footer ends the valid prefix there and blocks appending")
    func damageInTheMiddle() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("middle.lifetrace")
        let events = RandomEvents.make(count: 60, seed: 5)
        try TraceFiles.write(events, to: path, eventsPerFrame: 10, close: false)
        let clean = try TraceReader(path: path)
        #expect(!clean.isCleanlyClosed)
        #expect(clean.problems.isEmpty)
        let victim = clean.frames[2]
        var bytes = try TraceFiles.bytes(path)
        bytes[Int(victim.offset) + 70] ^= 0x10
        try TraceFiles.put(bytes, to: path)

        let reader = try TraceReader(path: path)
        #expect(reader.frames.count == 2)
        #expect(TraceFiles.readAll(reader).events == Array(events.prefix(20)))
        let problem = try #require(reader.problems.first)
        #expect(problem.code == .corruptFrame)
        #expect(problem.offset == victim.offset)
        #expect(problem.description.contains("offset \(victim.offset)"))
        #expect(problem.message.contains("valid frame follows"))
        let refusal = try #require(throws: TraceError.self) { try TraceWriter.openForAppend(path: path) }
        #expect(refusal.offset == victim.offset)
        #expect(throws: TraceError.self) { try TraceWriter.truncateTornTail(path: path) }
        #expect(try TraceFiles.bytes(path) == bytes)
    }

    @Test("frames spliced from another trace are reported (sequence, ordinals, time) and still read")
    func splicedFrames() throws {
        let directory = TemporaryDirectory()
        let late = (0..<20).map { Event(timestamp: 1_000 + UInt64($0), .app(AppEvent(.didBecomeActive))) }
        let early = (0..<10).map { Event(timestamp: UInt64($0), .app(AppEvent(.willResignActive))) }
        let path = directory.file("spliced.lifetrace")
        let other = directory.file("early.lifetrace")
        try TraceFiles.write(late, to: path, eventsPerFrame: 10, close: false)
        try TraceFiles.write(early, to: other, eventsPerFrame: 10, close: false)
        let otherBytes = try TraceFiles.bytes(other)
        let otherHeader = Int(try TraceReader(path: other).headerLength)
        try TraceFiles.put(try TraceFiles.bytes(path) + otherBytes[otherHeader...], to: path)

        let reader = try TraceReader(path: path)
        #expect(reader.frames.count == 3)
        #expect(reader.timeSpan == 0...1_019)
        #expect(reader.problems.map(\.code).contains(.sequenceGap))
        #expect(reader.problems.map(\.code).contains(.timestampWentBackwards))
        #expect(TraceFiles.readAll(reader).events == late + early)
        let report = try reader.verify()
        #expect(report.problems.contains { $0.code == .timestampWentBackwards && $0.offset == reader.frames[2].offset })
    }

    @Test("reopening after a torn write drops the torn frame and continues sequence numbers and ordinals")
    func reopenAfterTornWrite() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("torn.lifetrace")
        let events = RandomEvents.make(count: 300, seed: 11)
        try TraceFiles.write(Array(events[0..<100]), to: path, eventsPerFrame: 32, close: false)
        let intact = try TraceFiles.bytes(path)
        // A second process wrote a frame and died after 150 of its bytes.
        let other = directory.file("other.lifetrace")
        try TraceFiles.write(Array(events[100..<200]), to: other, eventsPerFrame: 1000, close: false)
        let otherBytes = try TraceFiles.bytes(other)
        let frameStart = Int(try TraceReader(path: other).headerLength)
        try TraceFiles.put(intact + otherBytes[frameStart..<(frameStart + 150)], to: path)

        let writer = try TraceWriter.openForAppend(path: path, options: TraceFiles.options(eventsPerFrame: 32))
        let recovery = try #require(writer.recovery)
        #expect(recovery.offset == UInt64(intact.count))
        #expect(recovery.droppedBytes == 150)
        #expect(writer.eventCount == 100)
        #expect(writer.lastTimestamp == events[99].timestamp)
        #expect(try TraceFiles.bytes(path) == intact)
        try writer.append(contentsOf: events[100...])
        try writer.close()

        let reader = try TraceReader(path: path)
        #expect(reader.isCleanlyClosed)
        #expect(TraceFiles.readAll(reader).events == events)
        #expect(reader.allFrames.map(\.sequence) == Array(0..<UInt64(reader.allFrames.count)))
        #expect(try reader.verify().problems.isEmpty)
    }

    @Test("reopening a cleanly closed file removes its index, appends, and writes a new one")
    func reopenCleanFile() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("clean.lifetrace")
        let events = RandomEvents.make(count: 90, seed: 12)
        try TraceFiles.write(Array(events[0..<50]), to: path, eventsPerFrame: 20)
        let writer = try TraceWriter.openForAppend(path: path)
        #expect(writer.recovery == nil)
        #expect(writer.eventCount == 50)
        #expect(writer.header == TraceFiles.header)
        #expect(throws: TraceError.self) { try writer.append(Event(timestamp: 0, .app(AppEvent(.didBecomeActive)))) }
        try writer.append(contentsOf: events[50...])
        try writer.close()
        let reader = try TraceReader(path: path)
        #expect(reader.isCleanlyClosed)
        #expect(reader.frames.map(\.eventCount) == [20, 20, 10, 40])
        #expect(TraceFiles.readAll(reader).events == events)
    }

    @Test("the index rebuilt by walking the frames equals the index written on close")
    func indexRebuilt() throws {
        let directory = TemporaryDirectory()
        let trace = try Self.smallTrace(in: directory)
        #expect(trace.reader.isCleanlyClosed)
        let footerless = directory.file("footerless.lifetrace")
        try TraceFiles.put(Array(trace.bytes.dropLast(TraceFooter.length)), to: footerless)
        let rebuilt = try TraceReader(path: footerless)
        #expect(!rebuilt.isCleanlyClosed)
        #expect(rebuilt.allFrames == trace.reader.allFrames)
        #expect(rebuilt.frames == trace.reader.frames)
        #expect(rebuilt.checkpoints == trace.reader.checkpoints)
        #expect(rebuilt.eventCount == trace.reader.eventCount)
        // An index frame without its footer is derived data, not damage.
        #expect(rebuilt.problems.isEmpty)
        #expect(try TraceWriter.truncateTornTail(path: footerless) == nil)
        #expect(try rebuilt.verify().problems.isEmpty)
    }

    @Test("a newer major version is refused with a clear message; a newer minor with a longer header is read")
    func versions() throws {
        let directory = TemporaryDirectory()
        let trace = try Self.smallTrace(in: directory)
        let headerLength = Int(trace.reader.headerLength)

        func withHeader(major: UInt16, minor: UInt16, extra: [UInt8]) -> [UInt8] {
            var header = Array(trace.bytes[0..<(headerLength - 4)]) + extra
            header[8] = UInt8(major & 0xFF)
            header[9] = UInt8(major >> 8)
            header[10] = UInt8(minor & 0xFF)
            header[11] = UInt8(minor >> 8)
            let length = UInt32(header.count + 4)
            for index in 0..<4 { header[12 + index] = UInt8(truncatingIfNeeded: length >> UInt32(8 * index)) }
            var writer = ByteWriter()
            writer.writeUInt32(CRC32.checksum(header))
            return header + writer.bytes + trace.bytes[headerLength...]
        }

        let newer = directory.file("newer.lifetrace")
        try TraceFiles.put(withHeader(major: 3, minor: 0, extra: []), to: newer)
        let error = try #require(throws: TraceError.self) { try TraceReader(path: newer) }
        #expect(error.code == .unsupportedVersion)
        #expect(error.description.contains("format 3.0"))
        #expect(error.description.hasPrefix(newer))

        let newerMinor = directory.file("minor.lifetrace")
        try TraceFiles.put(withHeader(major: 2, minor: 3, extra: [1, 2, 3, 4, 5]), to: newerMinor)
        let reader = try TraceReader(path: newerMinor)
        #expect(reader.header.formatMinor == 3)
        #expect(reader.header.producer == TraceFiles.header.producer)
        #expect(TraceFiles.readAll(reader).events == trace.events)
        #expect(throws: TraceError.self) { try TraceWriter.openForAppend(path: newerMinor) }
    }

    @Test("an empty file and a file that is not a trace are refused with their own codes")
    func foreignFiles() throws {
        let directory = TemporaryDirectory()
        let empty = directory.file("empty.lifetrace")
        try TraceFiles.put([], to: empty)
        let emptyError = try #require(throws: TraceError.self) { try TraceReader(path: empty) }
        #expect(emptyError.code == .emptyFile)
        #expect(emptyError.description.hasPrefix("\(empty): offset 0: "))

        let text = directory.file("notes.txt")
        try TraceFiles.put(Array("viewDidLoad\nviewWillAppear\n".utf8), to: text)
        let textError = try #require(throws: TraceError.self) { try TraceReader(path: text) }
        #expect(textError.code == .notATrace)

        let missing = directory.file("missing.lifetrace")
        let missingError = try #require(throws: TraceError.self) { try TraceReader(path: missing) }
        #expect(missingError.code == .io)
        #expect(missingError.description.contains("No such file"))
    }
}
