import Testing
import TraceModel

@testable import Simulator

/// The scenario language refuses what it does not know, at `FILE:LINE:COLUMN`, and keeps free-form custom marks.
@Suite("scenario typos are errors with a line and column")
struct ScenarioStrictnessTests {
    static func error(_ text: String) -> ScenarioError? {
        do {
            _ = try ScenarioParser(file: "s.scenario").parse(text)
            return nil
        } catch {
            return error as? ScenarioError
        }
    }

    @Test(
        "a mistyped value, field, mark, keyword or option is refused at its column",
        arguments: [
            ("class A\n    viewWillDisappear: save key=draft critical=maybe", 2, 48, "'critical' of mark 'save' must be true or false; found 'maybe'"),
            ("class A\n    viewWillDisappear: save key=draft critical=\"true\"", 2, 48, "must be true or false"),
            ("class A\n    viewWillDisappear: save key=draft critcal=true", 2, 39, "mark 'save' has no field 'critcal' (did you mean 'critical'?)"),
            ("class A\n    viewWillDisappear: save key=a key=b", 2, 35, "gives 'key' twice"),
            ("class A\n    viewDidLoad: svae key=draft", 2, 18, "unknown mark 'svae' (did you mean 'save'?)"),
            ("class A\n    viewDidLoad: Save key=draft", 2, 18, "unknown mark 'Save'"),
            ("class A\n    viewDidLoad: timer.start id=t interval=1", 2, 35, "mark 'timer.start' has no field 'interval'"),
            ("class A\n    viewDidLoad: geometry.read width=wide height=3", 2, 38, "'width' of mark 'geometry.read' must be a number"),
            ("class A\n    viewDidLoad: geometry.read width=3", 2, 18, "both width= and height="),
            ("class A\n    viewDidLoad: work label=charts duration=soon", 2, 45, "must be a duration"),
            ("class A\n    viewDidLoad: work label=charts duration=40ms extra=1", 2, 50, "mark 'work' has no field 'extra'"),
            ("class A\n    viewDidLoad: touch-view now", 2, 29, "'touch-view' takes no arguments"),
            ("class A\n    viewDidLod: save key=x", 2, 5, "(did you mean 'viewDidLoad'?)"),
            ("at 0s launch\nat 1s presnt b: B from a", 2, 7, "unknown command 'presnt' (did you mean 'present'?)"),
            ("at 0s launch\nat 1s a doez edit key=x", 2, 9, "(did you mean 'a does'?)"),
            ("at 0s root nav: UINavigationController(a: A)\nat 1s push b: B on nav animatd", 2, 24, "unexpected 'animatd'"),
            ("at 0s root a: A\nat 1s present b: B from a as pagesheet", 2, 30, "(did you mean 'pageSheet'?)"),
            ("att 1s launch", 1, 1, "found 'att' (did you mean 'at'?)"),
            ("at 1x launch", 1, 4, "expected a time after 'at'"),
            ("window 390by844", 1, 8, "expected a size after 'window'"),
        ] as [(String, Int, Int, String)]
    )
    func refused(text: String, line: Int, column: Int, message: String) throws {
        let error = try #require(Self.error(text), "accepted: \(text)")
        #expect(error.code == .syntax)
        #expect(error.line == line)
        #expect(error.column == column, "\(error)")
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.description.hasPrefix("s.scenario:\(line):\(column): error: "), "\(error)")
    }

    @Test("standard marks store typed values in the vocabulary's order; custom marks stay free-form")
    func typedValues() throws {
        let text = """
            class A
                viewWillDisappear: save critical=false key=42; edit key="two words"; geometry.read height=844 width=390
                viewDidLoad: custom.sync count=3 ratio=0.5 ok=true note=maybe quoted="true"; work label=7 duration=45ms
            """
        let scenario = try ScenarioParser(file: "s.scenario").parse(text)
        let spec = try #require(scenario.classes["A"])
        let willDisappear = try #require(spec.hooks[.callback(.viewWillDisappear)])
        #expect(willDisappear.map(\.kind) == [
            .mark(name: "save", fields: [MarkField("key", .string("42")), MarkField("critical", .bool(false))]),
            .mark(name: "edit", fields: [MarkField("key", .string("two words"))]),
            .mark(name: "geometry.read", fields: [MarkField("width", .double(390)), MarkField("height", .double(844))]),
        ])
        let didLoad = try #require(spec.hooks[.callback(.viewDidLoad)])
        #expect(didLoad.map(\.kind) == [
            .mark(name: "custom.sync", fields: [
                MarkField("count", .int(3)), MarkField("ratio", .double(0.5)), MarkField("ok", .bool(true)),
                MarkField("note", .string("maybe")), MarkField("quoted", .string("true")),
            ]),
            .work(label: "7", duration: 45_000_000),
        ])
    }
}
