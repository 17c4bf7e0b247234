import Audit
import Foundation
import Testing
import TraceLog
import TraceModel
@testable import TraceViews

@Suite("Chrome trace export")
struct ChromeTraceWriterTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func sampleEvents(_ name: String) throws -> (TraceHeader, [Event]) {
        let reader = try TraceReader(path: root.appendingPathComponent("traces/\(name).lifetrace").path)
        var events: [Event] = []
        try reader.forEachEvent { _, event in events.append(event) }
        return (reader.header, events)
    }

    /// Exports `events` and parses the result back as JSON.
    static func export(_ events: [Event], header: TraceHeader? = nil, findings: [Finding] = []) throws -> (ChromeTraceWriter.Summary, [[String: Any]], String) {
        var bytes: [UInt8] = []
        var writer = try ChromeTraceWriter(header: header) { bytes += $0 }
        for (ordinal, event) in events.enumerated() {
            try writer.write(event, ordinal: UInt64(ordinal))
        }
        let summary = try writer.finish(findings: findings)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let traceEvents = try #require(object["traceEvents"] as? [[String: Any]])
        return (summary, traceEvents, String(decoding: bytes, as: UTF8.self))
    }

    @Test("nanoseconds become exact decimal microseconds")
    func microseconds() {
        #expect(TraceEventTime.microseconds(0) == "0.000")
        #expect(TraceEventTime.microseconds(7) == "0.007")
        #expect(TraceEventTime.microseconds(5_900_400_000) == "5900400.000")
        #expect(TraceEventTime.microseconds(1_234_567) == "1234.567")
        #expect(TraceEventTime.microseconds(UInt64.max) == "18446744073709551.615")
    }

    @Test("the cancelled swipe-back sample: one slice per callback, nested, a cancelled disappearance, a flow, findings")
    func cancelledSwipeBack() throws {
        let (header, events) = try Self.sampleEvents("cancelled-swipe-back-save")
        let findings = try Auditor().audit(events)
        #expect(!findings.isEmpty)
        let (summary, traceEvents, _) = try Self.export(events, header: header, findings: findings)

        let callbackEvents = events.filter {
            if case .callback(let c) = $0.payload { return c.phase != .end }
            return false
        }
        let marks = events.filter { if case .mark = $0.payload { return true } else { return false } }
        let slices = traceEvents.filter { $0["cat"] as? String == "callback" }
        #expect(slices.count == callbackEvents.count)
        #expect(summary.callbacks == callbackEvents.count)
        #expect(traceEvents.filter { $0["cat"] as? String == "mark" }.count == marks.count)
        #expect(traceEvents.filter { $0["cat"] as? String == "finding" }.count == findings.count)
        #expect(summary.findings == findings.count)

        // The editor's disappearance is cancelled by the gesture, and the list's appearance too.
        let cancelled = traceEvents.filter { ($0["name"] as? String)?.hasSuffix("(cancelled)") == true }
        let cancelledNames = Set(cancelled.map { $0["name"] as! String })
        #expect(cancelledNames == ["disappearing (cancelled)", "appearing (cancelled)"])
        #expect(summary.cancelledSpans == cancelled.count)

        // The interactive transition's begin and its cancel are bound by one flow.
        let outs = traceEvents.filter { $0["flow_out"] as? Bool == true }
        let ins = traceEvents.filter { $0["flow_in"] as? Bool == true }
        #expect(outs.count == 1 && ins.count == 1)
        #expect(outs.first?["bind_id"] as? String == ins.first?["bind_id"] as? String)
        #expect(ins.first?["name"] as? String == "interactiveTransitionCancel")

        // Every callback slice of a thread nests: a slice starting inside another ends inside it.
        var byThread: [Int: [(Double, Double)]] = [:]
        for slice in slices {
            let ts = try #require(slice["ts"] as? Double)
            let dur = try #require(slice["dur"] as? Double)
            byThread[slice["tid"] as! Int, default: []].append((ts, ts + dur))
        }
        for (_, intervals) in byThread {
            for a in intervals {
                for b in intervals where b.0 > a.0 && b.0 < a.1 {
                    #expect(b.1 <= a.1)
                }
            }
        }

        // Thread names: Type#serial for callbacks, and an appearance thread each.
        let threadNames = traceEvents.filter { $0["name"] as? String == "thread_name" }.compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(threadNames.contains("NoteEditorViewController#3"))
        #expect(threadNames.contains("NoteEditorViewController#3 appearance"))
        #expect(threadNames.contains("findings"))
    }

    @Test("threads are ordered by the container tree: the navigation controller, then its stack")
    func treeOrder() throws {
        let (header, events) = try Self.sampleEvents("cancelled-swipe-back-save")
        let (_, traceEvents, _) = try Self.export(events, header: header)
        var names: [Int: String] = [:]
        var sort: [Int: Int] = [:]
        for event in traceEvents {
            guard let tid = event["tid"] as? Int, let args = event["args"] as? [String: Any] else { continue }
            if event["name"] as? String == "thread_name" { names[tid] = args["name"] as? String }
            if event["name"] as? String == "thread_sort_index" { sort[tid] = args["sort_index"] as? Int }
        }
        let ordered = sort.filter { $0.value >= 1000 && $0.key % 2 == 0 }.sorted { $0.value < $1.value }.compactMap { names[$0.key] }
        #expect(ordered == ["UINavigationController#2", "NotesListViewController#1", "NoteEditorViewController#3"])
    }

    @Test("an instant callback from an imported log is a zero-length slice; an open callback at the end is unfinished")
    func instantsAndUnfinished() throws {
        let a = ControllerRef(serial: 1, typeName: "A")
        let events = [
            Event.callback(CallbackEvent(.viewDidLoad, .instant, controller: a), at: 1_000),
            Event.callback(CallbackEvent(.viewWillAppear, .begin, controller: a, animated: true), at: 2_000),
            Event.mark(MarkEvent.save(key: "draft", critical: true, controller: a), at: 2_500),
        ]
        let (summary, traceEvents, text) = try Self.export(events)
        let slices = traceEvents.filter { $0["cat"] as? String == "callback" }
        #expect(slices.count == 2)
        let didLoad = try #require(slices.first { $0["name"] as? String == "viewDidLoad" })
        #expect(didLoad["dur"] as? Double == 0)
        let willAppear = try #require(slices.first { $0["name"] as? String == "viewWillAppear" })
        #expect((willAppear["args"] as? [String: Any])?["unfinished"] as? Bool == true)
        #expect((willAppear["args"] as? [String: Any])?["animated"] as? Bool == true)
        #expect(text.contains("\"ts\":2.000,\"dur\":0.500"))
        let mark = try #require(traceEvents.first { $0["cat"] as? String == "mark" })
        #expect(mark["name"] as? String == "save (critical) draft")
        #expect(mark["ph"] as? String == "i")
        #expect(summary.marks == 1)
    }

    @Test("a second recording run is a second process; the first run's controllers end there")
    func runs() throws {
        let a = ControllerRef(serial: 1, typeName: "A")
        let b = ControllerRef(serial: 2, typeName: "B")
        let events = [
            Event(timestamp: 0, .recorder(.runStarted(process: "Notes[1]"))),
            Event.callback(CallbackEvent(.viewWillAppear, .begin, controller: a), at: 10),
            Event(timestamp: 100, .recorder(.runStarted(process: "Notes[2]"))),
            Event.callback(CallbackEvent(.viewDidLoad, .instant, controller: b), at: 110),
        ]
        let (summary, traceEvents, _) = try Self.export(events)
        #expect(summary.processes == 2)
        let processNames = traceEvents.filter { $0["name"] as? String == "process_name" }.map { (($0["args"] as? [String: Any])?["name"] as? String, $0["pid"] as? Int) }
        #expect(processNames.map(\.0) == ["Notes[1]", "Notes[2]"])
        let willAppear = try #require(traceEvents.first { $0["name"] as? String == "viewWillAppear" })
        #expect(willAppear["pid"] as? Int == 1)
        #expect(willAppear["dur"] as? Double == 0.09)
        let didLoad = try #require(traceEvents.first { $0["name"] as? String == "viewDidLoad" })
        #expect(didLoad["pid"] as? Int == 2)
    }
}
