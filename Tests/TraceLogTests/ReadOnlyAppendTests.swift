import Foundation
import Testing

@testable import TraceLog

#if canImport(Glibc)
import Glibc
#endif

/// Appending to a file that cannot be opened for writing (read-only) first says what a user must fix: a file that
/// is not a trace is "not a Lifetrace trace" (making it writable would not help), with the write error after it;
/// a read-only trace gets the write error alone. Before, both got only "Permission denied".
@Suite("append to a read-only file")
struct ReadOnlyAppendTests {
    /// The error `openForAppend(path:)` throws for `path`, made read-only (mode 0444), thrown on a thread whose
    /// file-system user is `nobody`: root may write any file (CAP_DAC_OVERRIDE), and `setfsuid(2)` drops that for
    /// the calling thread only (looked up with `dlsym`: the Glibc module does not import `sys/fsuid.h`). Not
    /// root, the file mode alone refuses the write.
    static func appendError(_ path: String) throws -> String? {
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        final class Outcome: @unchecked Sendable {
            // Written by the thread before `done.signal()`, read after `done.wait()`.
            var message: String?
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            #if canImport(Glibc)
            typealias SetFSUID = @convention(c) (UInt32) -> Int32
            let setfsuid = dlsym(nil, "setfsuid").map { unsafeBitCast($0, to: SetFSUID.self) }
            let previous = setfsuid?(65534)
            #endif
            do {
                let writer = try TraceWriter.openForAppend(path: path)
                try? writer.close()
            } catch {
                outcome.message = "\(error)"
            }
            #if canImport(Glibc)
            if let previous { _ = setfsuid?(UInt32(previous)) }
            #endif
            done.signal()
        }
        thread.start()
        done.wait()
        return outcome.message
    }

    @Test("a read-only file that is not a trace: 'not a Lifetrace trace' first, then the write error", arguments: [
        "hello, not a trace\n", "",
    ])
    func notATrace(content: String) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("notes.txt")
        try content.write(toFile: path, atomically: false, encoding: .utf8)
        let message = try #require(try Self.appendError(path), "appended to a read-only file")
        let notATrace = try #require(message.range(of: content.isEmpty ? "empty file" : "not a Lifetrace trace"), "\(message)")
        let denied = try #require(message.range(of: "Permission denied"), "\(message)")
        #expect(notATrace.lowerBound < denied.lowerBound, "\(message)")
        #expect(message.contains("nor can it be opened for writing"), "\(message)")
    }

    @Test("a read-only trace: the write error alone")
    func readOnlyTrace() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("t.lifetrace")
        try TraceFiles.write([], to: path)
        let message = try #require(try Self.appendError(path), "appended to a read-only trace")
        #expect(message.contains("Permission denied"), "\(message)")
        #expect(!message.contains("not a Lifetrace trace"), "\(message)")
    }
}
