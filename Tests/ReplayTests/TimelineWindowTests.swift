import Testing
import TraceModel

@testable import Replay

/// `Timeline.clipped(from:to:)` and `keeping(_:)`: the window `lifetrace timeline --from/--to/--controller` shows.
@Suite("timeline windows")
struct TimelineWindowTests {
    static let a = ControllerRef(serial: 1, typeName: "ListViewController")
    static let b = ControllerRef(serial: 2, typeName: "DetailViewController")

    static func at(_ ms: UInt64) -> UInt64 { 1_000_000_000 + ms * 1_000_000 }

    /// A appears (0–100 ms), saves at 1 s, disappears (2000–2100 ms) and is deinitialized at 3 s; B appears at 4 s.
    static func timeline() -> Timeline {
        func cb(_ callback: Callback, _ ref: ControllerRef, _ ms: UInt64) -> Event {
            .callback(CallbackEvent(callback, .instant, controller: ref), at: at(ms))
        }
        return Timeline.build([
            .app(AppEvent(.didBecomeActive), at: at(0)),
            cb(.initialize, a, 0), cb(.viewWillAppear, a, 0), cb(.viewDidAppear, a, 100),
            .mark(MarkEvent(MarkName.save, controller: a), at: at(1000)),
            cb(.viewWillDisappear, a, 2000), cb(.viewDidDisappear, a, 2100), cb(.deinitialize, a, 3000),
            cb(.initialize, b, 4000), cb(.viewWillAppear, b, 4000), cb(.viewDidAppear, b, 4100),
        ])
    }

    @Test("a window keeps the lanes alive in it, cuts their spans, and keeps the app state it starts in")
    func window() throws {
        let full = Self.timeline()
        let window = full.clipped(from: Self.at(1500), to: Self.at(2050))
        #expect(window.start == Self.at(1500))
        #expect(window.end == Self.at(2050))
        #expect(window.lanes.map(\.controller) == [Self.a], "B is first seen after the window")
        let lane = try #require(window.lanes.first)
        #expect(lane.spans.map(\.appearance) == [.appeared, .disappearing])
        #expect(lane.spans.first?.start == Self.at(1500))
        #expect(lane.spans.last?.end == Self.at(2050), "cut at the window's end")
        #expect(lane.marks.isEmpty, "the save at 1 s is before the window")
        #expect(lane.deinitTime == nil)
        #expect(window.appStates.map(\.state) == [.active])
        #expect(window.appStates.first?.time == Self.at(1500))

        let late = full.clipped(from: Self.at(3500), to: .max)
        #expect(late.lanes.map(\.controller) == [Self.b], "A was deinitialized before the window")
        #expect(late.lanes.first?.spans.last?.end == nil, "still appeared at the end of the trace")
        #expect(full.clipped(from: Self.at(9000), to: .max).start == nil, "after the trace: nothing")
        #expect(full.clipped(from: 0, to: .max) == full, "a window over the whole trace is the timeline")
    }

    @Test("keeping selects lanes; render counts the header from the origin given")
    func keepingAndOrigin() {
        let full = Self.timeline()
        #expect(full.keeping { $0.controller.typeName == "DetailViewController" }.lanes.map(\.controller) == [Self.b])
        let window = full.clipped(from: Self.at(1000), to: Self.at(3000))
        #expect(window.render(width: 20, origin: Self.at(0)).hasPrefix("timeline 1.000 s … 3.000 s, 20 columns, "))
        #expect(full.render(width: 20).hasPrefix("timeline 0.000 s … 4.100 s, 20 columns, "))
    }
}
