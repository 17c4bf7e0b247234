import Foundation
import Simulator
import Testing
import TraceModel

@Suite("Scenario language")
struct ScenarioParserTests {
    @Test("classes, hooks, actions and steps parse into the model")
    func parses() throws {
        let scenario = try ScenarioParser().parse("""
            title "Demo"   # a comment
            scene main
            window 428x926

            class Editor
                viewWillDisappear: save key=draft critical=true; work label="save all" duration=12ms
                didEnterBackground: save key=draft critical=true
            class Host: UIHostingController<FeedView>
                onAppear: analytics.screen name=feed
                modalInPresentation

            at 0s     launch
            after 1s  root nav: UINavigationController(list: List)
            at 2.5s   push e: Editor on nav unanimated
            at 3s     present h: Host from e as formSheet
            at 4s     e does edit key=draft
            at 5s     select-tab tabs 2
            at 6s     rotate to 926x428
            """)
        #expect(scenario.title == "Demo")
        #expect(scenario.sceneID == "main")
        #expect(scenario.windowSize == Size(width: 428, height: 926))
        let editor = try #require(scenario.classes["Editor"])
        #expect(editor.hooks[.callback(.viewWillDisappear)] == [
            Action(.mark(name: "save", fields: [MarkField("key", .string("draft")), MarkField("critical", .bool(true))]), line: 6),
            Action(.work(label: "save all", duration: 12_000_000), line: 6),
        ])
        #expect(editor.hooks[.app(.didEnterBackground)]?.count == 1)
        let host = try #require(scenario.classes["Host"])
        #expect(host.kind == .hosting(rootView: "FeedView"))
        #expect(host.isModalInPresentation)
        #expect(scenario.steps.map(\.command) == [
            .launch,
            .root(ControllerSpec(name: "nav", typeName: "UINavigationController", children: [ControllerSpec(name: "list", typeName: "List")])),
            .push(ControllerSpec(name: "e", typeName: "Editor"), on: "nav", animated: false),
            .present(ControllerSpec(name: "h", typeName: "Host"), from: "e", style: .formSheet, animated: true),
            .does("e", [Action(.mark(name: "edit", fields: [MarkField("key", .string("draft"))]), line: 16)]),
            .selectTab("tabs", .index(2)),
            .rotate(Size(width: 926, height: 428)),
        ])
        #expect(scenario.steps[1].timing == .after(1_000_000_000))
        #expect(scenario.steps[2].timing == .at(2_500_000_000))
        #expect(scenario.steps[2].line == 14)
    }

    @Test(
        "errors name the line and say what was expected",
        arguments: [
            ("at 0s launch\nat 1s psh a: A on nav", 2, "unknown command 'psh'"),
            ("class A\n    viewWillDisapear: save key=x", 2, "expected 'HOOK: ACTION"),
            ("class A\n    viewDidLoad: save critical=true", 2, "mark 'save' needs key=VALUE"),
            ("class A\n    viewDidLoad: save draft", 2, "expected FIELD=VALUE after 'save', found 'draft'"),
            ("at soon launch", 1, "expected a time after 'at'"),
            ("at 1s push a: A nav", 1, "expected 'on', found 'nav'"),
            ("at 1s present a: A from b as sideways", 1, "expected a presentation style"),
            ("  viewDidLoad: save key=x", 1, "indented lines belong to a 'class NAME' line"),
            ("launch", 1, "expected 'class NAME', 'at TIME COMMAND'"),
            ("class A: UIButton", 1, "expected UIViewController, UINavigationController"),
            ("class A\n    onAppear: analytics.screen name=a", 2, "is a SwiftUI action"),
            ("at 1s rotate to sideways", 1, "expected a size WIDTHxHEIGHT"),
            ("at 1s pop nav now", 1, "unexpected 'now' at the end of the 'pop' command"),
            ("class A\n    viewDidLoad: work label=x", 2, "mark 'work' needs duration=VALUE"),
        ] as [(String, Int, String)]
    )
    func syntaxErrors(text: String, line: Int, message: String) {
        let error = #expect(throws: ScenarioError.self) { try ScenarioParser(file: "bad.scenario").parse(text) }
        #expect(error?.code == .syntax)
        #expect(error?.line == line)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        // FILE:LINE:COLUMN: error: MESSAGE
        let position = error?.description.split(separator: " ").first.map(String.init) ?? ""
        #expect(position.hasPrefix("bad.scenario:\(line):") && position.hasSuffix(":"), "\(error?.description ?? "")")
        #expect((error?.column ?? 0) > 0)
        #expect(error?.description.contains(": error: ") == true)
    }

    @Test(
        "steps UIKit would not allow fail with the step's line",
        arguments: [
            ("at 0s root nav: UINavigationController(a: A)\nat 1s pop nav", 2, "holds only its root view controller"),
            ("at 0s root a: A\nat 1s push b: B on a", 2, "it is a view controller, not a navigation controller"),
            ("at 0s root a: A\nat 1s present b: B from a\nat 2s present c: C from a", 3, "already presenting"),
            ("at 0s root a: A\nat 1s push b: B on nav", 2, "unknown controller 'nav'"),
            ("at 0s root a: A\nat 1s root a: A", 2, "'a' already names A#1"),
            ("at 0s root a: A\nat 1s present b: B from a as fullScreen\nat 2s swipe-down b", 3, "only a pageSheet or formSheet"),
            ("at 0s root nav: UINavigationController(a: A)\nat 1s finish-swipe-back nav", 2, "no interactive transition in progress"),
            ("at 0s root nav: UINavigationController(a: A)\nat 1s push b: B on nav\nat 2s begin-swipe-back nav\nat 3s push c: C on nav", 4, "interactive transition in progress (begun at line 3)"),
            ("at 2s launch\nat 1s background", 2, "before the previous step"),
            ("at 0s root a: A\nat 1s select-tab a 1", 2, "not a tab bar controller"),
            ("at 0s launch\nat 1s terminate\nat 2s background", 3, "the app was terminated (line 2)"),
            ("at 0s root nav: UINavigationController(a: A)\nat 1s push b: B on nav\nat 2s pop nav\nat 3s b does edit key=x", 4, "was already deinitialized"),
        ] as [(String, Int, String)]
    )
    func illegalSteps(text: String, line: Int, message: String) {
        let error = #expect(throws: ScenarioError.self) { try Simulator.run(text: text, file: "bad.scenario", into: EventCollector()) }
        #expect(error?.code == .illegalStep)
        #expect(error?.line == line)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }

    @Test("a step inside the previous step's animation starts when it ends; times never go backwards")
    func overlappingSteps() throws {
        let run = try Run("at 0s root nav: UINavigationController(a: A)\nat 1s push b: B on nav\nat 1.1s pop nav")
        let popStart = try #require(run.events(from: "pop").first?.timestamp)
        #expect(popStart >= 1_350_000_000)
        var previous: UInt64 = 0
        for event in run.events {
            #expect(event.timestamp >= previous)
            previous = event.timestamp
        }
    }

    @Test("--print lines are indented by nesting")
    func printer() throws {
        let run = try Run("""
            class A
                viewDidLoad: work label=setup duration=2ms
            at 0s root a: A
            """)
        let lines = CallbackOrderPrinter.lines(run.events, steps: run.markers)
        #expect(lines.first == "── line 3: root a: A")
        let load = try #require(lines.firstIndex { $0.hasSuffix("A#1.viewDidLoad()") })
        #expect(lines[load + 1].hasSuffix("    • work label=setup"))
        #expect(lines[load].contains("  A#1.viewDidLoad()"))
    }

    @Test("CRLF line endings parse as LF ones: same steps, classes and line numbers (a CRLF file was one comment line, an empty scenario)")
    func crlfLineEndings() throws {
        let text = "# a comment first\nclass Editor\n    viewWillDisappear: save key=draft critical=true\n\nat 0s launch\nat 1s root e: Editor\nat 2s background\n"
        let lf = try ScenarioParser().parse(text)
        let crlf = try ScenarioParser().parse(text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(lf.steps.count == 3)
        #expect(crlf.steps.count == lf.steps.count)
        #expect(crlf.steps.map(\.line) == lf.steps.map(\.line))
        #expect(crlf.classes["Editor"]?.hooks == lf.classes["Editor"]?.hooks)
        let error = #expect(throws: ScenarioError.self) {
            try ScenarioParser(file: "bad.scenario").parse("at 0s launch\r\nat 1s frobnicate\r\n")
        }
        #expect(error?.line == 2)
    }
}
