import Audit
import Foundation
import Replay
import Testing
import TraceLog
import TraceModel
@testable import TraceViews

@Suite("HTML report data")
struct ReportTraceBuilderTests {
    static func build(_ name: String, stateLimit: Int = ReportTraceBuilder.defaultStateLimit) throws -> (ReportTrace, [Event]) {
        let (header, events) = try ChromeTraceWriterTests.sampleEvents(name)
        var builder = ReportTraceBuilder(path: "traces/\(name).lifetrace", header: header, auditor: try Auditor(), stateLimit: stateLimit)
        for (ordinal, event) in events.enumerated() { builder.observe(event, ordinal: UInt64(ordinal)) }
        return (builder.finish(), events)
    }

    @Test("one state per distinct event time, each the fold of every event at or before it")
    func statesAtEveryInstant() throws {
        let (trace, events) = try Self.build("cancelled-swipe-back-save")
        let times = Array(Set(events.map(\.timestamp))).sorted()
        #expect(trace.states.map(\.time) == times.map { $0 - times[0] })
        #expect(!trace.isStateSampled)
        for kept in trace.states {
            let upTo = events.filter { $0.timestamp - times[0] <= kept.time }
            let state = ReplayState.replaying(upTo)
            #expect(kept.tree == state.tree(start: times[0]))
            #expect(kept.summary == StateText.summary(state))
        }
    }

    @Test("lanes in tree order, the cancelled spans, the findings with their fixes")
    func lanesAndFindings() throws {
        let (trace, _) = try Self.build("cancelled-swipe-back-save")
        #expect(trace.lanes.map(\.ref.displayName) == ["UINavigationController#2", "NotesListViewController#1", "NoteEditorViewController#3"])
        let editor = try #require(trace.lanes.last)
        #expect(editor.spans.contains { $0.state == "disappearing" && $0.isCancelled })
        #expect(editor.marks.contains { $0.label.hasPrefix("save (critical) draft") })
        #expect(trace.findings.map(\.rule) == ["critical_save_placement", "unsaved_edit_at_exit"])
        #expect(trace.findings.allSatisfy { !$0.fix.isEmpty })
    }

    @Test("past the state limit, the kept instants halve and stay evenly spread")
    func sampling() throws {
        let (trace, events) = try Self.build("cancelled-swipe-back-save", stateLimit: 8)
        let distinct = Set(events.map(\.timestamp)).count
        #expect(distinct > 16)
        #expect(trace.isStateSampled)
        #expect(trace.states.count < 8 && trace.states.count >= 4)
        #expect(trace.states.first?.time == 0)
    }

    @Test("the page embeds the data, escapes '<', and references nothing outside it")
    func page() throws {
        let (trace, _) = try Self.build("cancelled-swipe-back-save")
        var hostile = trace
        hostile.path = "</script><script>alert(1)</script>"
        let html = HTMLReport.render([trace, hostile], title: "a <b> title")
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("src="))
        #expect(!html.contains("</script><script>alert"))
        #expect(html.contains("<title>a &lt;b&gt; title</title>"))
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"lifetrace-data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [[String: Any]]
        #expect(data?.count == 2)
        #expect(data?.last?["path"] as? String == hostile.path)
    }
}
