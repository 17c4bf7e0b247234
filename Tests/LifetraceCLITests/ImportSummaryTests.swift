import Foundation
import Testing
@testable import LifetraceCLI

/// What `lifetrace import` says about a log's times and about lines whose controllers it cannot tell apart.
@Suite("Import summary: times and lines the log does not tell apart")
struct ImportSummaryTests {
    func importing(_ lines: [String]) throws -> String {
        let directory = try RealCase.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("app.log")
        try Data(lines.joined(separator: "\n").utf8).write(to: log)
        let (output, captured) = CommandOutput.capturing()
        let code = Lifetrace.run(arguments: ["import", log.path, "-o", directory.appendingPathComponent("t.lifetrace").path], output: output)
        #expect(code == .success)
        return captured.standardOutput
    }

    @Test("a Z or offset time is UTC; a time without an offset is shown as written, without Z, and not called UTC")
    func zoneWording() throws {
        let utc = try importing(["2024-11-02T21:04:10.500Z Chat[771:1203] ConversationViewController viewDidLoad"])
        #expect(utc.contains("times: dates, 0 s = 2024-11-02T21:04:10.500000Z (UTC; the log gives UTC offsets)"))
        let offset = try importing(["2024-11-02 22:04:10.500+0100 Chat[771:1203] ConversationViewController viewDidLoad"])
        #expect(offset.contains("times: dates, 0 s = 2024-11-02T21:04:10.500000Z (UTC; the log gives UTC offsets)"))
        let local = try importing(["2024-11-02 21:04:10.500 Chat[771:1203] ConversationViewController viewDidLoad"])
        #expect(local.contains(
            "times: dates, 0 s = 2024-11-02T21:04:10.500000 as written (no UTC offset in the log: the device's local time, zone unknown)"))
    }

    @Test("lines naming no controller, and a second viewDidLoad of one name, are named in the summary")
    func ambiguities() throws {
        let text = try importing([
            "viewDidLoad", "viewWillAppear", "DetailViewController viewDidLoad", "DetailViewController viewDidLoad",
            "\u{202E}Detail viewDidLoad",
        ])
        #expect(text.contains("2 lines name no controller (lines 1, 2): read as one controller, (anonymous); the log cannot tell their controllers apart"))
        #expect(text.contains(
            "DetailViewController#2: viewDidLoad at line 3 and again at line 4, with no deinit or viewDidUnload between: one instance loaded twice, or two the log does not tell apart (it prints no address or label)"))
        // A name is kept whole and shown escaped.
        #expect(text.contains("\\u{202E}Detail#3"))
    }

    @Test("a viewDidLoad after that controller disappeared is named as read for a new instance")
    func newInstanceNamed() throws {
        let text = try importing([
            "🍀 SecondViewController viewDidLoad", "🍀 SecondViewController viewDidDisappear", "🍀 SecondViewController viewDidLoad",
        ])
        #expect(text.contains(
            "SecondViewController#2: viewDidLoad at line 3, after SecondViewController#1 (viewDidLoad at line 1) had disappeared: read as a new instance, since UIKit does not load a view twice (the log prints no address or label)"))
    }
}

