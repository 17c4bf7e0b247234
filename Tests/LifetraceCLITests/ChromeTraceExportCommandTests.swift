import Foundation
import Testing

@testable import LifetraceCLI

/// `lifetrace export --format chrome-trace` on every shipped trace and imported case, and its option errors.
@Suite("export --format chrome-trace")
struct ChromeTraceExportCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        let (output, captured) = CommandOutput.capturing()
        let code = Lifetrace.run(arguments: arguments, output: output)
        return (code, captured.standardOutput, captured.standardError)
    }

    static var shippedTraces: [String] {
        let traces = root.appendingPathComponent("traces")
        let names = (FileManager.default.enumerator(atPath: traces.path)?.allObjects as? [String]) ?? []
        return names.filter { $0.hasSuffix(".lifetrace") && !$0.contains("generated-session") }.sorted().map { traces.appendingPathComponent($0).path }
    }

    @Test("every shipped trace and imported case exports to one JSON object whose traceEvents all have ph and pid")
    func everyShippedTrace() throws {
        let traces = Self.shippedTraces
        #expect(traces.count > 40)
        for path in traces {
            let result = Self.run(["export", path, "--format", "chrome-trace"])
            #expect(result.code == .success, "\(path): \(result.err)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any], "\(path)")
            let events = try #require(object["traceEvents"] as? [[String: Any]], "\(path)")
            // Every trace with controller callbacks shows them as slices (some public logs hold only app and scene
            // events, or only marks).
            let hasCallbacks = Self.run(["export", path]).out.contains(#""kind":"callback""#)
            #expect(events.contains { $0["cat"] as? String == "callback" } == hasCallbacks, "\(path): callback slices")
            for event in events {
                #expect(event["ph"] is String && event["pid"] is Int, "\(path): \(event)")
            }
        }
    }

    @Test("--no-findings leaves the findings track out; --no-findings with jsonl is a usage error")
    func findingsOption() throws {
        let sample = Self.root.appendingPathComponent("traces/cancelled-swipe-back-save.lifetrace").path
        let with = Self.run(["export", sample, "--format", "chrome-trace"])
        let without = Self.run(["export", sample, "--format", "chrome-trace", "--no-findings"])
        #expect(with.out.contains("\"cat\":\"finding\""))
        #expect(!without.out.contains("\"cat\":\"finding\""))
        let misuse = Self.run(["export", sample, "--no-findings"])
        #expect(misuse.code == .usageOrInput)
        #expect(misuse.err.contains("--no-findings and --config go with --format chrome-trace"))
    }
}
