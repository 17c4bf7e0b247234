import Foundation
import Testing

/// The real consumers the reports are checked against: Python validators (`jsonschema`, and the XML ones) in the
/// project's virtual environment `.build/venv`, installed by `tools/install-deps` from `tools/requirements.txt`.
/// A test that needs one fails (never skips) when the environment is missing.
enum ExternalValidator {
    /// The package's root directory (this file is Tests/LifetraceCLITests/ExternalValidator.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var python: String { root.appendingPathComponent(".build/venv/bin/python3").path }

    /// A file of the repository by its relative path.
    static func file(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Runs `tools/NAME` with the venv's Python; returns its exit status and standard output (standard error
    /// appended).
    static func run(tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "\(python) is missing: run tools/install-deps (it installs tools/requirements.txt into .build/venv)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [file("tools/" + tool)] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Validates the JSON document (or, with `lines`, every line of newline-delimited JSON) in `path` against the
    /// JSON Schema at the repository path `schema` with `jsonschema` (tools/validate-json.py).
    static func validateJSON(_ path: String, schema: String, lines: Bool = false) throws -> (status: Int32, output: String) {
        try run(tool: "validate-json.py", [file(schema), path] + (lines ? ["--lines"] : []))
    }
}
