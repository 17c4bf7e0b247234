import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TraceModel
@testable import Audit

/// A trace's path, controller names and mark keys are text from outside. Before, the text report printed the path
/// raw (a newline in it split a finding's headline in two, so a script counting `FILE:event N:` lines miscounted)
/// and printed bidirectional overrides raw (a right-to-left override in a controller's name reorders what a CI log
/// shows); the JUnit report dropped control characters and let attribute-value normalisation turn a tab or newline
/// of a path into a space. Human reports now show such characters escaped; machine reports keep them exactly.
@Suite("Reporters: text from the trace, escaped for people, exact for machines")
struct ReporterEscapingTests {
    static let path = "traces/we\nird\t\u{1B}[31m\u{202E}.lifetrace"
    static let type = "Note\u{202E}Editor\u{2066}X\u{2069}"

    /// Case 01's shape with a hostile type name and path: 3 findings.
    func report() throws -> AuditReport {
        var events = InstantLog("""
            0.0 \(Self.type) viewDidLoad
            0.1 \(Self.type) viewWillAppear
            0.2 \(Self.type) viewDidAppear
            1.0 \(Self.type) edit key=dr\u{200B}aft
            2.0 \(Self.type) viewWillDisappear
            2.1 \(Self.type) save critical=true key=dr\u{200B}aft
            2.5 \(Self.type) viewWillAppear
            2.6 \(Self.type) viewDidAppear
            3.0 \(Self.type) viewDidAppear
            4.0 \(Self.type) edit key=dr\u{200B}aft
            5.0 app didEnterBackground
            """).events
        for index in events.indices { events[index].source = nil }
        let auditor = try Auditor()
        let findings = auditor.audit(events)
        let trace = TraceAudit(path: Self.path, eventCount: UInt64(events.count), findings: findings)
        return AuditReport(traces: [trace], rules: auditor.active.map(\.rule.descriptor), isStrict: false)
    }

    /// Control characters other than the line feed, and format characters (Cf), left raw in `text`.
    static func raw(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0 != "\n" && ($0.properties.generalCategory == .control || $0.properties.generalCategory == .format) }
    }

    @Test("text: one headline per finding, the path and names escaped, nothing invisible left raw")
    func text() throws {
        let report = try report()
        #expect(report.traces[0].findings.count == 3)
        let output = TextReporter.render(report)
        let shownPath = #"traces/we\nird\t\u{1B}[31m\u{202E}.lifetrace"#
        let headlines = output.split(separator: "\n").filter { $0.hasPrefix(shownPath + ":event ") }
        #expect(headlines.count == 3, "\(output)")
        #expect(Self.raw(output).isEmpty, "\(Self.raw(output))")
        #expect(output.contains(#"in Note\u{202E}Editor\u{2066}X\u{2069}#1, callback viewWillDisappear"#))
        #expect(output.contains(#"'dr\u{200B}aft'"#))
        // Every line is a headline, an indented detail or the summary: nothing was split off.
        for line in output.split(separator: "\n") {
            #expect(line.hasPrefix(shownPath) || line.hasPrefix("    ") || line.hasPrefix("audited "), "\(line)")
        }
    }

    @Test("JSON and SARIF keep the path and names exactly")
    func jsonExact() throws {
        let report = try report()
        let document = try #require(try JSONSerialization.jsonObject(with: Data(JSONReporter.render(report).utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect((findings[0]["controller"] as? String) == ControllerRef(serial: 1, typeName: Self.type).displayName)
        #expect((findings[0]["controller"] as? String)?.contains("\u{202E}") == true)
        let sarif = SARIFReporter.render(report)
        #expect(sarif.contains("\u{202E}"))
        _ = try JSONSerialization.jsonObject(with: Data(sarif.utf8))
    }

    @Test("JUnit: well-formed XML whose attributes and text read back exactly; what XML 1.0 cannot hold is shown")
    func junit() throws {
        let xml = JUnitReporter.render(try report())
        let document = try XMLDocument(data: Data(xml.utf8))
        let suite = try #require(try document.nodes(forXPath: "//testsuite").first as? XMLElement)
        // ESC cannot be in an XML 1.0 document at all: it is written out as the text report shows it.
        #expect(suite.attribute(forName: "name")?.stringValue == "traces/we\nird\t\\u{1B}[31m\u{202E}.lifetrace")
        let failure = try #require(try document.nodes(forXPath: "//failure").first as? XMLElement)
        #expect(failure.attribute(forName: "message")?.stringValue?.contains("'dr\u{200B}aft'") == true)
        #expect(failure.stringValue?.contains("in \(ControllerRef(serial: 1, typeName: Self.type).displayName)") == true)
    }

    @Test("JUnit escaping, character by character", arguments: [
        ("a&b<c>\"'", "a&amp;b&lt;c&gt;&quot;&apos;", "a&amp;b&lt;c&gt;&quot;&apos;"),
        ("tab\there", "tab&#9;here", "tab&#9;here"),
        ("line\nfeed", "line&#10;feed", "line\nfeed"),
        ("cr\rlf", "cr&#13;lf", "cr&#13;lf"),
        ("esc\u{1B}bell\u{07}", #"esc\u{1B}bell\u{07}"#, #"esc\u{1B}bell\u{07}"#),
        ("del\u{7F}c1\u{85}", "del&#127;c1&#133;", "del&#127;c1&#133;"),
        ("non\u{FFFE}char\u{FFFF}", #"non\u{FFFE}char\u{FFFF}"#, #"non\u{FFFE}char\u{FFFF}"#),
        ("rlo\u{202E}é", "rlo\u{202E}é", "rlo\u{202E}é"),
    ])
    func junitEscape(text: String, attribute: String, content: String) {
        #expect(JUnitReporter.escape(text) == attribute)
        #expect(JUnitReporter.escape(text, inAttribute: false) == content)
    }

    @Test("GitHub: file= is the path exactly (percent-encoded); the message shows invisible characters escaped")
    func github() throws {
        let output = GitHubAnnotationReporter.render(try report())
        let first = try #require(output.split(separator: "\n").first)
        #expect(first.hasPrefix("::error file=traces/we%0Aird\t\u{1B}[31m\u{202E}.lifetrace,title=critical_save_placement::"), "\(first)")
        let message = first.components(separatedBy: "::").last ?? ""
        #expect(Self.raw(message).isEmpty, "\(message)")
        #expect(message.contains(#"'dr\u{200B}aft'"#))
    }
}
