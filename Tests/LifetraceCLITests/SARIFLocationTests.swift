import Audit
import Foundation
import Testing
import TraceModel
@testable import LifetraceCLI

/// `audit --format sarif` located in committed files, checked against the OASIS SARIF 2.1.0 schema kept in
/// Tests/Fixtures/schemas (with `jsonschema`).
@Suite("SARIF: committed locations, fingerprints, schema")
struct SARIFLocationTests {
    static let schema = "Tests/Fixtures/schemas/sarif-schema-2.1.0.json"
    /// The committed import of real case 01 (a console log committed under Tests/Fixtures/cases).
    static let committed = "traces/cases/01-cancelled-pop-save.lifetrace"

    func sarif(_ arguments: [String]) throws -> (log: [String: Any], text: String) {
        let result = runCLI(["audit"] + arguments + ["--format", "sarif"])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any], "\(result.err)")
        return (log, result.out)
    }

    func results(_ log: [String: Any]) throws -> [[String: Any]] {
        try #require(((log["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
    }

    func primary(_ result: [String: Any]) throws -> (uri: String, line: Int?) {
        let physical = try #require(((result["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
        let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
        return (uri, (physical["region"] as? [String: Any])?["startLine"] as? Int)
    }

    func validate(_ text: String) throws {
        let scratch = try CLIScratch("sarif")
        let file = scratch.path("report.sarif")
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        let validation = try ExternalValidator.validateJSON(file, schema: Self.schema)
        #expect(validation.status == 0, "\(validation.output)")
    }

    @Test("an imported log's finding points at the committed log's line, relative to the repository; the message links every related location")
    func importedLog() throws {
        let (log, text) = try sarif([Self.committed, "--category", "lifetrace/cases"])
        try validate(text)
        let results = try results(log)
        #expect(results.count == 2)
        let first = try primary(results[0])
        #expect(first.uri == "Tests/Fixtures/cases/01-cancelled-pop-save.log" && first.line == 11)
        #expect(FileManager.default.fileExists(atPath: ExternalValidator.file(first.uri)), "a committed file")
        let related = try #require(results[0]["relatedLocations"] as? [[String: Any]])
        let message = try #require((results[0]["message"] as? [String: Any])?["text"] as? String)
        for location in related {
            let id = try #require(location["id"] as? Int)
            #expect(message.contains("](\(id))"), "related location \(id) is linked from the message: \(message)")
        }
        let logical = try #require(((results[0]["locations"] as? [[String: Any]])?.first?["logicalLocations"]) as? [[String: Any]])
        #expect(logical.first?["name"] as? String == "NoteEditorViewController" && logical.first?["kind"] as? String == "type")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        #expect((run["automationDetails"] as? [String: Any])?["id"] as? String == "lifetrace/cases/")
    }

    @Test("the fingerprint is rule, controller type, callback and key: the same story at other times and serials keeps it")
    func fingerprint() throws {
        let scratch = try CLIScratch("fingerprint")
        let one = scratch.path("one.lifetrace")
        let other = scratch.path("other.lifetrace")
        try AuditCommandTests.writeTrace(AuditCommandTests.cancelledPopEvents, to: one)
        // Every event 1.5 s later: other times, same story.
        try AuditCommandTests.writeTrace(
            AuditCommandTests.cancelledPopEvents.map { Event(timestamp: $0.timestamp + 1_500_000_000, $0.payload) }, to: other)
        let hashes = try [one, other].map { path in
            try results(try sarif([path]).log).map { try #require(($0["partialFingerprints"] as? [String: Any])?["primaryLocationLineHash"] as? String) }
        }
        #expect(hashes[0] == hashes[1])
        #expect(Set(hashes[0]).count == 2, "the two findings differ")
        for hash in hashes[0] {
            let parts = hash.split(separator: ":")
            #expect(parts.count == 2 && parts[0].count == 16 && parts[1] == "1", "\(hash)")
        }
    }

    @Test("every rule's fullDescription fits GitHub's 1,024 characters; the whole explanation stays in help")
    func descriptions() throws {
        let (log, _) = try sarif([Self.committed])
        let rules = try #require(((log["runs"] as? [[String: Any]])?.first?["tool"] as? [String: Any]).flatMap { ($0["driver"] as? [String: Any])?["rules"] as? [[String: Any]] })
        for rule in rules {
            let full = try #require((rule["fullDescription"] as? [String: Any])?["text"] as? String)
            #expect(full.count <= 1024, "\(rule["id"] ?? "")")
            let help = try #require((rule["help"] as? [String: Any])?["text"] as? String)
            #expect(help.hasPrefix(full.hasSuffix("…") ? String(full.dropLast()) : full))
        }
        #expect(SARIFReporter.shortened(String(repeating: "word ", count: 300), to: 1024).count <= 1024)
        #expect(SARIFReporter.shortened("One. Two three.", to: 10) == "One.")
    }

    @Test("a trace outside the repository is a file:// URI, and the report validates; nothing is written beside the trace")
    func outside() throws {
        let scratch = try CLIScratch("outside")
        let trace = scratch.path("a b.lifetrace")
        try AuditCommandTests.writeTrace(AuditCommandTests.cancelledPopEvents, to: trace)
        let (log, text) = try sarif([trace])
        try validate(text)
        let first = try primary(try results(log)[0])
        #expect(first.uri == "file://" + trace.replacingOccurrences(of: " ", with: "%20"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["a b.lifetrace"])
    }

    @Test("the schema is a real check: a result without a message is refused")
    func schemaRefuses() throws {
        let scratch = try CLIScratch("sarif-bad")
        let file = scratch.path("bad.sarif")
        try #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"r"}]}]}"#
            .write(toFile: file, atomically: false, encoding: .utf8)
        let validation = try ExternalValidator.validateJSON(file, schema: Self.schema)
        #expect(validation.status == 1, "\(validation.output)")
    }

    @Test("--category must be a name on one line")
    func category() {
        let result = runCLI(["audit", Self.committed, "--format", "sarif", "--category", ""])
        #expect(result.code == .usageOrInput && result.err.contains("--category"))
    }
}
