import Foundation
import Testing

@testable import LifetraceCLI

#if canImport(Glibc)
import Glibc
#endif

/// `ImportCommand.StandardInputSpool` read in this process. Serialized: `readAll` installs process-wide signal
/// handlers while it reads, and one test raises SIGINT.
@Suite("the copy of standard input, read in this process", .serialized)
struct StandardInputSpoolTests {
    /// A file of `count` bytes `byte` in `scratch`, opened for reading: what `readAll` reads in place of standard
    /// input. The caller closes it.
    static func input(_ byte: UInt8, count: Int, named name: String, in scratch: CLIScratch) throws -> Int32 {
        let source = scratch.path(name)
        try Data(repeating: byte, count: count).write(to: URL(fileURLWithPath: source))
        let input = open(source, O_RDONLY)
        try #require(input >= 0)
        return input
    }

    @Test("the copy of standard input stays locked until removed, so no other run takes it for a killed run's")
    func spoolStaysLocked() throws {
        let scratch = try CLIScratch("stdin-lock")
        let input = try Self.input(0x61, count: 200_000, named: "input.log", in: scratch)
        defer { close(input) }
        let spool = try ImportCommand.StandardInputSpool(besides: scratch.path("out.lifetrace"))
        try spool.readAll(from: input)
        #expect(spool.byteCount == 200_000)
        #expect(!spool.stoppedEarly)
        let other = open(spool.path, O_RDONLY)
        try #require(other >= 0)
        defer { close(other) }
        #expect(flock(other, LOCK_EX | LOCK_NB) != 0, "the spool file was unlocked once read")
        spool.remove()
        #expect(!FileManager.default.fileExists(atPath: spool.path))
    }

    @Test("reading stops once the first bytes are refused")
    func refusedHeadStops() throws {
        let scratch = try CLIScratch("stdin-head")
        let input = try Self.input(0, count: 300_000, named: "input.bin", in: scratch)
        defer { close(input) }
        let spool = try ImportCommand.StandardInputSpool(besides: scratch.path("out.lifetrace"))
        var asked = 0
        try spool.readAll(from: input, refuses: {
            asked += 1
            return true
        })
        #expect(asked == 1)
        #expect(spool.stoppedEarly)
        #expect(spool.byteCount == 65536)
        spool.remove()
    }

    @Test("Ctrl-C that arrives with the end of the stream is still named as what ended the input")
    func signalWithEndOfStream() throws {
        let scratch = try CLIScratch("stdin-signal-eof")
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let bytes = Array("viewDidLoad\n".utf8)
        try #require(write(ends[1], bytes, bytes.count) == bytes.count)
        close(ends[1])
        let spool = try ImportCommand.StandardInputSpool(besides: scratch.path("out.lifetrace"))
        defer { spool.remove() }
        // `progress` runs after poll(2) says the descriptor is readable and before read(2): once every byte is
        // copied, the next read is the end of the stream, and SIGINT arrives just before it (as Ctrl-C on a
        // terminal stops the writer too). The handler readAll installed catches it.
        try spool.readAll(from: ends[0], progress: { count in
            if count == UInt64(bytes.count) { raise(SIGINT) }
        })
        #expect(spool.byteCount == UInt64(bytes.count))
        #expect(spool.endingSignal == SIGINT)
    }
}
