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
    /// The error `openForAppend(path:)` throws for `path`, made read-only (mode 0444), thrown on a thread without
    /// CAP_DAC_OVERRIDE in its effective capabilities: root may write any file, and `capset(2)` changes the calling
    /// thread's capabilities only (looked up with `dlsym`: the Glibc module does not import them). The file's owner
    /// (root) still reads it and searches its directory. Not root, the file mode alone refuses the write.
    static func appendError(_ path: String) throws -> String? {
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        final class Outcome: @unchecked Sendable {
            // Written by the thread before `done.signal()`, read after `done.wait()`.
            var message: String?
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let restore = withoutOverridingFilePermissions()
            do {
                let writer = try TraceWriter.openForAppend(path: path)
                try? writer.close()
            } catch {
                outcome.message = "\(error)"
            }
            restore()
            done.signal()
        }
        thread.start()
        done.wait()
        return outcome.message
    }

    /// Clears CAP_DAC_OVERRIDE (bit 1) from the calling thread's effective capabilities (it stays permitted);
    /// returns what puts them back. Does nothing where `capget`/`capset` are not found.
    static func withoutOverridingFilePermissions() -> () -> Void {
        #if canImport(Glibc)
        typealias CapCall = @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer) -> Int32
        guard let get = dlsym(nil, "capget").map({ unsafeBitCast($0, to: CapCall.self) }),
              let set = dlsym(nil, "capset").map({ unsafeBitCast($0, to: CapCall.self) })
        else { return {} }
        // struct __user_cap_header_struct { u32 version (_LINUX_CAPABILITY_VERSION_3); int pid (0: this thread) },
        // then two struct __user_cap_data_struct { u32 effective, permitted, inheritable }.
        var header: [UInt32] = [0x2008_0522, 0]
        var saved = [UInt32](repeating: 0, count: 6)
        guard get(&header, &saved) == 0 else { return {} }
        var lowered = saved
        lowered[0] &= ~UInt32(1 << 1)
        header = [0x2008_0522, 0]
        guard set(&header, &lowered) == 0 else { return {} }
        return {
            var header: [UInt32] = [0x2008_0522, 0]
            _ = set(&header, &saved)
        }
        #else
        return {}
        #endif
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
