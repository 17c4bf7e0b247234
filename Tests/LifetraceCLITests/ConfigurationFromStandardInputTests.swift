import Foundation
import Testing

/// `--config -`: the configuration read from standard input, as the other commands read `-`.
@Suite("audit --config - reads standard input")
struct ConfigurationFromStandardInputTests {
    static let trace = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("traces/cancelled-swipe-back-save.lifetrace").path

    @Test("a configuration piped in applies; a bad one is named <stdin> with its line and column")
    func configurationFromStandardInput() throws {
        let scratch = try CLIScratch("config-stdin")
        try "{}".write(toFile: scratch.path("empty.json"), atomically: false, encoding: .utf8)
        let defaults = try ChildRun.lifetrace(["audit", Self.trace, "--config", "-"], in: scratch.url.path, input: scratch.path("empty.json"))
        #expect(defaults.standardOutput.contains("critical_save_placement"), "\(defaults.output)")

        try #"{"disabled_rules": ["critical_save_placement", "unsaved_edit_at_exit"]}"#
            .write(toFile: scratch.path("disable.json"), atomically: false, encoding: .utf8)
        let fromFile = try ChildRun.lifetrace(["audit", Self.trace, "--config", "disable.json"], in: scratch.url.path)
        let piped = try ChildRun.lifetrace(["audit", Self.trace, "--config", "-"], in: scratch.url.path, input: scratch.path("disable.json"))
        #expect(piped.exitStatus == fromFile.exitStatus)
        #expect(piped.standardOutput == fromFile.standardOutput)
        #expect(!piped.standardOutput.contains("critical_save_placement"), "\(piped.output)")

        try "{\n  \"disabled_rules\": [\"no_such_rule\"]\n}\n".write(toFile: scratch.path("bad.json"), atomically: false, encoding: .utf8)
        let bad = try ChildRun.lifetrace(["audit", Self.trace, "--config", "-"], in: scratch.url.path, input: scratch.path("bad.json"))
        #expect(bad.exitStatus == 2, "\(bad.output)")
        #expect(bad.standardError.contains("<stdin>:2:"), "\(bad.standardError)")
    }
}
