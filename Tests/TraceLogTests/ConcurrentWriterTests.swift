import Foundation
import Testing
import TraceModel

@testable import TraceLog

/// Two writers on one file (two processes of an app recording into the same trace, a recorder and
/// `verify --repair`, a second `Recorder(path:)` in the same process) each wrote at their own idea of the end of
/// the file: the second overwrote the first's frames, or `TraceWriter(creating:)` truncated a trace another
/// writer was filling. A writer now holds an exclusive lock on its file and a second one is refused.
@Suite struct ConcurrentWriterTests {
    private func events(_ range: Range<UInt64>) -> [Event] {
        range.map { Event(timestamp: $0 * 1_000, .mark(MarkEvent("m\($0)"))) }
    }

    @Test func aSecondAppenderIsRefusedWhileTheFirstWrites() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("shared.lifetrace")
        let first = try TraceFiles.write(events(0..<10), to: path, eventsPerFrame: 4, close: false)
        let error = #expect(throws: TraceError.self) { _ = try TraceWriter.openForAppend(path: path) }
        #expect(error?.code == .io)
        #expect(error?.message.contains("another writer") == true)
        #expect(error?.file == path)
        // The first writer goes on, and everything it wrote reads back.
        try first.append(contentsOf: events(10..<20))
        try first.close()
        let read = TraceFiles.readAll(try TraceReader(path: path))
        #expect(read.error == nil)
        #expect(read.events == events(0..<20))
    }

    @Test func creatingOverATraceBeingWrittenDoesNotTruncateIt() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("shared.lifetrace")
        let first = try TraceFiles.write(events(0..<10), to: path, eventsPerFrame: 4, close: false)
        let sizeBefore = try TraceFiles.bytes(path).count
        #expect(throws: TraceError.self) {
            _ = try TraceWriter(creating: path, header: TraceFiles.header)
        }
        #expect(try TraceFiles.bytes(path).count == sizeBefore)
        try first.close()
        let read = TraceFiles.readAll(try TraceReader(path: path))
        #expect(read.events == events(0..<10))
    }

    @Test func repairIsRefusedWhileAWriterHoldsTheFile() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("shared.lifetrace")
        let first = try TraceFiles.write(events(0..<10), to: path, eventsPerFrame: 4, close: false)
        // Bytes that look like a torn tail to a reader (a frame still being written, say).
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data([0x4C, 0x54, 0x46]))
        try handle.close()
        #expect(throws: TraceError.self) { _ = try TraceWriter.truncateTornTail(path: path) }
        _ = first
    }

    @Test func aClosedOrReleasedWriterLetsTheNextOneIn() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("shared.lifetrace")
        try TraceFiles.write(events(0..<5), to: path)
        do {
            let second = try TraceWriter.openForAppend(path: path)
            try second.append(contentsOf: events(5..<8))
            // Released without close(): its descriptor, and so its lock, goes with it.
        }
        let third = try TraceWriter.openForAppend(path: path)
        try third.append(contentsOf: events(8..<10))
        try third.close()
        #expect(TraceFiles.readAll(try TraceReader(path: path)).events == events(0..<10))
    }

    /// A child process started by another thread holds a copy of a writer's descriptor, and so its lock, until
    /// it execs: a writer closed and at once reopened found its own old lock busy (a flaky
    /// `RecorderFileTests.appendToTornLegacyTrace` on a loaded machine). A lock freed within the writer's
    /// patience is waited for.
    @Test func aLockReleasedAMomentLaterIsWaitedFor() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("shared.lifetrace")
        try TraceFiles.write(events(0..<5), to: path)
        let holder = open(path, O_RDONLY | O_CLOEXEC)
        try #require(holder >= 0)
        try #require(flock(holder, LOCK_EX | LOCK_NB) == 0)
        // A thread of its own: the test runs on the concurrency pool, which blocked threads can starve.
        Thread {
            usleep(50_000)
            _ = close(holder)
        }.start()
        let writer = try TraceWriter.openForAppend(path: path)
        try writer.append(contentsOf: events(5..<8))
        try writer.close()
        #expect(TraceFiles.readAll(try TraceReader(path: path)).events == events(0..<8))
    }
}
