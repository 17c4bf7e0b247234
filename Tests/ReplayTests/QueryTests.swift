import Foundation
import TraceLog
import TraceModel
@testable import Replay

import Testing

@Suite("Queries: visible intervals, mark attribution, timeline, JSON")
struct QueryTests {
    static func pushedAndPopped() -> [Event] {
        let (nav, list, detail) = (NavigationTests.nav, NavigationTests.list, NavigationTests.detail)
        return NavigationTests.setupEvents + NavigationTests.pushEvents + [
            cb(.viewWillDisappear, detail, 200, .begin),
            markEvent(MarkName.save, nil, 201, [MarkField("key", .string("draft"))]),
            cb(.viewWillDisappear, detail, 202, .end),
            op(.pop, nav, [detail], 203),
            cb(.viewWillAppear, list, 204), cb(.viewDidDisappear, detail, 205), cb(.viewDidAppear, list, 206),
            cb(.deinitialize, detail, 207),
        ]
    }

    static func writeTrace(_ events: [Event], _ scratch: ScratchDirectory) throws -> Replayer {
        let path = scratch.file("query.lifetrace")
        _ = try TestTraces.write(events, to: path, eventsPerFrame: 5, policy: .init(eventInterval: 7, timeInterval: 0))
        return try Replayer(path: path)
    }

    @Test("visible intervals are the appeared spans")
    func visibleIntervals() throws {
        let scratch = ScratchDirectory()
        let replayer = try Self.writeTrace(Self.pushedAndPopped(), scratch)
        #expect(try replayer.visibleIntervals(of: "ListViewController#2") == [
            Timeline.Span(appearance: .appeared, start: ms(9), end: ms(105)),
            Timeline.Span(appearance: .appeared, start: ms(206), end: nil),
        ])
        #expect(try replayer.visibleIntervals(of: "DetailViewController#3") == [
            Timeline.Span(appearance: .appeared, start: ms(108), end: ms(200)),
        ])
        #expect(try replayer.visibleIntervals(of: "Nobody#9").isEmpty)
    }

    @Test("forEachEvent attributes each mark to its enclosing callback")
    func attribution() throws {
        let scratch = ScratchDirectory()
        let replayer = try Self.writeTrace(Self.pushedAndPopped(), scratch)
        var attributed: [(UInt64, ActiveCallback?)] = []
        var count = 0
        try replayer.forEachEvent { ordinal, event, enclosing in
            count += 1
            if case .mark = event.payload { attributed.append((ordinal, enclosing)) }
            else { #expect(enclosing == nil) }
        }
        #expect(count == Self.pushedAndPopped().count)
        #expect(attributed.count == 1)
        #expect(attributed.first?.1?.callback == .viewWillDisappear)
        #expect(attributed.first?.1?.controllerSerial == NavigationTests.detail.serial)
    }

    @Test("the timeline records spans, marks and deinit per lane")
    func timeline() throws {
        let timeline = Timeline.build(Self.pushedAndPopped())
        #expect(timeline.lanes.map(\.controller.displayName) == ["UINavigationController#1", "ListViewController#2", "DetailViewController#3"])
        let detail = try #require(timeline.lane(named: "DetailViewController#3"))
        #expect(detail.spans.map(\.appearance) == [.disappeared, .appearing, .appeared, .disappearing, .disappeared])
        #expect(detail.spans.last?.end == ms(207))
        #expect(detail.deinitTime == ms(207))
        #expect(detail.marks.map(\.name) == ["save"])
        #expect(detail.marks.first?.enclosing?.callback == .viewWillDisappear)
        let text = timeline.render(width: 20)
        #expect(text.split(separator: "\n").count == 5)
        #expect(text.contains("\nDetailViewController#3   |"))
    }

    @Test("JSON output parses and names controllers by display name")
    func json() throws {
        let state = ReplayState.replaying(Self.pushedAndPopped())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(state.json(start: 0).utf8)) as? [String: Any])
        let controllers = try #require(object["controllers"] as? [[String: Any]])
        #expect(controllers.count == 3)
        let detail = try #require(controllers.last)
        #expect(detail["name"] as? String == "DetailViewController#3")
        #expect(detail["alive"] as? Bool == false)
        #expect(detail["deinit_ns"] as? Int == Int(ms(207)))
        #expect((detail["removal"] as? [String: Any])?["kind"] as? String == "popped")
        #expect(object["window_root"] as? String == "UINavigationController#1")
        #expect(JSONText.string("a\"b\\c\n\u{1}é") == "\"a\\\"b\\\\c\\n\\u0001é\"")
    }
}
