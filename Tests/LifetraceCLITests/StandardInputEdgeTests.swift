import Foundation
import Testing

@testable import LifetraceCLI

#if canImport(Glibc)
import Glibc
#endif

/// `lifetrace import -` where standard input is not a plain stream that ends (breaker7, seventh session): the
/// `-o` file itself, closed, a directory, an endless stream of binary bytes, a stream ended by SIGTERM. Before:
/// `import - -o LOG < LOG` replaced the log with the trace; `< /dev/zero` filled the disk; SIGTERM (`kill %1` on a
/// `log stream | lifetrace import -` job) killed the import, and the next import deleted what had been read.
@Suite("import -: standard input that is a file, closed, endless, or ended by SIGTERM")
struct StandardInputEdgeTests {
    static let log = ImportStandardInputTests.log

    /// Runs `lifetrace ARGUMENTS` in `directory` with standard input read from `inputPath`, stopping it (SIGKILL)
    /// if it runs for more than a minute.
    static func run(_ arguments: [String], input inputPath: String, in directory: String) throws -> (status: Int32, out: String, err: String) {
        let executable = try #require(FileSizeLimitTests.lifetrace(), "build the lifetrace product first (swift build --build-tests)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let input = try #require(FileHandle(forReadingAtPath: inputPath))
        process.standardInput = input
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? input.close()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// Runs `lifetrace ARGUMENTS` through `/bin/sh -c`, with `redirection` (`<&-`, `< .`) applied to it.
    static func shell(_ arguments: [String], redirection: String, in directory: String) throws -> (status: Int32, err: String) {
        let executable = try #require(FileSizeLimitTests.lifetrace(), "build the lifetrace product first (swift build --build-tests)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" \"$@\" \(redirection)", executable] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let err = Pipe()
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errData, as: UTF8.self))
    }

    @Test("standard input that is the -o file is refused before anything is written: the log stays")
    func outputIsStandardInput() throws {
        let scratch = try CLIScratch("stdin-same-file")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.log))
        try bytes.write(to: URL(fileURLWithPath: scratch.path("session.log")))
        let result = try Self.run(["import", "-", "-o", "session.log"], input: scratch.path("session.log"), in: scratch.url.path)
        #expect(result.status == 2)
        #expect(result.err.contains("session.log: the output is the file on standard input"), "\(result.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("session.log"))) == bytes)
        #expect(ImportStandardInputTests.names(in: scratch.url.path) == ["session.log"])
        // Another file on standard input is imported as before.
        let other = try Self.run(["import", "-", "-o", "other.lifetrace"], input: scratch.path("session.log"), in: scratch.url.path)
        #expect(other.status == 0, "\(other.err)")
        #expect(other.out.hasPrefix("imported 16 events from <stdin> into other.lifetrace"))
    }

    @Test("closed standard input, or a directory, is named as such, and leaves no file")
    func closedOrDirectory() throws {
        let scratch = try CLIScratch("stdin-closed")
        let closed = try Self.shell(["import", "-", "-o", "out.lifetrace"], redirection: "<&-", in: scratch.url.path)
        #expect(closed.status == 2)
        #expect(closed.err.contains("<stdin>: standard input is closed"), "\(closed.err)")
        let directory = try Self.shell(["import", "-", "-o", "out.lifetrace"], redirection: "< .", in: scratch.url.path)
        #expect(directory.status == 2)
        #expect(directory.err.contains("<stdin>: standard input is a directory, not a log"), "\(directory.err)")
        #expect(ImportStandardInputTests.names(in: scratch.url.path).isEmpty)
    }

    @Test("-o a directory or in a missing directory is refused before standard input is read (it never ends here)")
    func outputCheckedBeforeReading() throws {
        let scratch = try CLIScratch("stdin-output-dir")
        try FileManager.default.createDirectory(atPath: scratch.path("dir"), withIntermediateDirectories: false)
        for (output, message) in [("dir", "-o 'dir' is a directory; give a file name"), ("missing/out.lifetrace", "-o 'missing/out.lifetrace': directory missing does not exist")] {
            // Nothing is written and standard input stays open: before, the input was read to its end first (a
            // live stream: until Ctrl-C), and then the import failed.
            let run = try ImportStandardInputTests.Run(["import", "-", "-o", output], in: scratch.url.path)
            #expect(run.waitForExit(), "\(output): standard input was read before -o was checked")
            let result = run.finish()
            #expect(result.status == 2)
            #expect(result.err.contains(message), "\(result.err)")
        }
        #expect(ImportStandardInputTests.names(in: scratch.url.path) == ["dir"])
    }

    @Test("a copy of standard input that cannot be written (ulimit -f) is named by the trace, not the temporary file")
    func copyFails() throws {
        let scratch = try CLIScratch("stdin-fsize")
        let line = try Data(contentsOf: URL(fileURLWithPath: Self.log))
        try Data((0..<40).flatMap { _ in line }).write(to: URL(fileURLWithPath: scratch.path("long.log")))
        let executable = try #require(FileSizeLimitTests.lifetrace(), "build the lifetrace product first (swift build --build-tests)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -f 16 && exec env --default-signal=XFSZ \"$0\" import - -o out.lifetrace < long.log", executable]
        process.currentDirectoryURL = scratch.url
        let err = Pipe()
        process.standardError = err
        try process.run()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 2)
        #expect(errText.contains("lifetrace import: error: <stdin>: cannot copy standard input to a file beside out.lifetrace at byte "), "\(errText)")
        #expect(!errText.contains("spooling-"), "\(errText)")
        let lines = errText.split(separator: "\n")
        let error = lines.firstIndex { $0.contains("error:") }, note = lines.firstIndex { $0.contains("is kept in out.lifetrace.stdin.log") }
        #expect(error != nil && note != nil && error! < note!, "\(errText)")
        #expect(ImportStandardInputTests.names(in: scratch.url.path) == ["long.log", "out.lifetrace.stdin.log"])
    }

    @Test("a log typed on the terminal gets no progress line over what is typed", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func typedOnTerminal() throws {
        let scratch = try CLIScratch("stdin-tty")
        let executable = try #require(FileSizeLimitTests.lifetrace(), "build the lifetrace product first (swift build --build-tests)")
        // script(1) runs the command on a pseudo-terminal: standard input and standard error are both terminals.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-q", "-c", "\(executable) import - -o typed.lifetrace", scratch.path("typescript.txt")]
        process.currentDirectoryURL = scratch.url
        let input = Pipe(), out = Pipe()
        process.standardInput = input
        process.standardOutput = out
        try process.run()
        sleep(1)
        input.fileHandleForWriting.write(Data("NoteEditorViewController viewDidLoad\n".utf8))
        sleep(2)  // the progress line showed after one second
        input.fileHandleForWriting.write(Data([4]))  // Ctrl-D
        let shown = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(shown.contains("end it with Ctrl-D"), "\(shown)")
        #expect(shown.contains("imported 1 events from <stdin> into typed.lifetrace"), "\(shown)")
        #expect(!shown.contains("reading standard input:"), "\(shown)")
    }

    @Test("an endless stream of NUL bytes is refused after its first 64 KiB instead of filling the disk")
    func endlessBinaryStream() throws {
        let scratch = try CLIScratch("stdin-endless")
        // Only read: /dev/zero never ends, so before, the copy of standard input grew until the disk was full.
        let result = try Self.run(["import", "-", "-o", "zero.lifetrace"], input: "/dev/zero", in: scratch.url.path)
        #expect(result.status == 2)
        #expect(result.err.contains("<stdin>: offset 0: a NUL byte: binary data, not a text console log"), "\(result.err)")
        #expect(result.err.contains("standard input was read no further than its first 65536 bytes"), "\(result.err)")
        #expect(ImportStandardInputTests.names(in: scratch.url.path) == ["zero.lifetrace.stdin.log"])
        let size = try FileManager.default.attributesOfItem(atPath: scratch.path("zero.lifetrace.stdin.log"))[.size] as? NSNumber
        #expect(size?.intValue == 65536)
    }

    @Test("SIGTERM while standard input is read ends the input as Ctrl-C does: what was read is imported")
    func terminated() throws {
        let scratch = try CLIScratch("stdin-term")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.log))
        let run = try ImportStandardInputTests.Run(["import", "-", "-o", "live.lifetrace"], in: scratch.url.path)
        run.write(bytes)
        try #require(run.waitUntilCopied(bytes.count, besides: "live.lifetrace", in: scratch.url.path))
        run.process.terminate()
        #expect(run.waitForExit(), "SIGTERM did not end the import")
        let result = run.finish()
        #expect(run.process.terminationReason == .exit)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("SIGTERM ended the input after \(bytes.count) bytes; importing what was read"))
        #expect(result.out.hasPrefix("imported 16 events from <stdin>"))
        #expect(ImportStandardInputTests.names(in: scratch.url.path) == ["live.lifetrace"])
    }
}

/// Output paths of one character (`-o x`, `import - -o -`): swift-corelibs-foundation's
/// `NSString.deletingLastPathComponent` traps on them, and every command that writes a file crashed (breaker7).
@Suite("one-character output paths")
struct OneCharacterPathTests {
    @Test("directory and last component, as NSString gives them for longer paths", arguments: [
        ("x", "", "x"), ("-", "", "-"), ("é", "", "é"), ("x/", "", "x"), ("/", "/", "/"), ("/x", "/", "x"),
        ("a/b", "a", "b"), ("a//b", "a", "b"), ("a/b/", "a", "b"), ("./x", ".", "x"), ("/a/b/c.lifetrace", "/a/b", "c.lifetrace"),
        ("ab", "", "ab"),
    ])
    func split(path: String, directory: String, last: String) {
        #expect(FilePaths.directory(of: path) == directory)
        #expect(FilePaths.lastComponent(of: path) == last)
        if path.count > 1, path != "x/" {
            #expect(FilePaths.directory(of: path) == (path as NSString).deletingLastPathComponent)
        }
    }

    @Test("simulate, export, audit and import write a one-character -o")
    func commands() throws {
        let scratch = try CLIScratch("one-char")
        let executable = try #require(FileSizeLimitTests.lifetrace(), "build the lifetrace product first (swift build --build-tests)")
        func lifetrace(_ arguments: [String]) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.currentDirectoryURL = scratch.url
            process.standardOutput = FileHandle(forWritingAtPath: scratch.path("stdout.txt"))
            process.standardError = FileHandle(forWritingAtPath: scratch.path("stdout.txt"))
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        _ = FileManager.default.createFile(atPath: scratch.path("stdout.txt"), contents: nil)
        #expect(try lifetrace(["simulate", "--generate", "5", "--seed", "1", "-o", "x"]) == 0)
        #expect(try lifetrace(["export", "x", "-o", "y"]) == 0)
        #expect(try [0, 1].contains(lifetrace(["audit", "x", "--format", "json", "-o", "z"])))
        #expect(try lifetrace(["import", StandardInputEdgeTests.log, "-o", "w"]) == 0)
        let piped = try ImportStandardInputTests.pipe(
            try Data(contentsOf: URL(fileURLWithPath: StandardInputEdgeTests.log)), ["import", "-", "-o", "-"], in: scratch.url.path)
        #expect(piped.status == 0, "\(piped.err)")
        #expect(ImportStandardInputTests.names(in: scratch.url.path) == ["-", "stdout.txt", "w", "x", "y", "z"])
    }
}
