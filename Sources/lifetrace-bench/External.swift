// Running the peers that are programs (sqlite3, python3 with duckdb, gzip) and small file helpers.

import Foundation

/// An error of the harness itself, with a message for the report.
struct BenchError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}

/// A program run to completion.
struct ProcessResult {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

enum External {
    /// The absolute path of `name` on `PATH`, or nil when it is not installed.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments`, feeding it `input` on standard input (or nothing), and returns its
    /// status and output. Standard output is discarded unless `capturesOutput`.
    static func run(
        _ executable: String, _ arguments: [String], input: String? = nil, inputFile: String? = nil,
        capturesOutput: Bool = true
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let outputPipe = Pipe()
        let inputPipe = Pipe()
        // Standard error goes to a file so that only one pipe is read while the child runs.
        let errorPath = NSTemporaryDirectory() + "lifetrace-bench-stderr-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard FileManager.default.createFile(atPath: errorPath, contents: nil),
            let errorHandle = FileHandle(forWritingAtPath: errorPath)
        else { throw BenchError("cannot create \(errorPath)") }
        defer {
            try? errorHandle.close()
            try? FileManager.default.removeItem(atPath: errorPath)
        }
        if let inputFile {
            guard let handle = FileHandle(forReadingAtPath: inputFile) else { throw BenchError("cannot read \(inputFile)") }
            process.standardInput = handle
        } else {
            process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        }
        process.standardOutput = capturesOutput ? outputPipe : FileHandle.nullDevice
        process.standardError = errorHandle
        try process.run()
        if let input {
            try inputPipe.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
        let outputData = capturesOutput ? outputPipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        let errorData = FileManager.default.contents(atPath: errorPath) ?? Data()
        return ProcessResult(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// The size of the file at `path` in bytes (0 when missing).
    static func fileSize(_ path: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }
}
