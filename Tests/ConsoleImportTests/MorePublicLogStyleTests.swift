import Testing
import TraceModel
@testable import ConsoleImport

/// Lines quoted from the logs of Tests/Fixtures/public added for split views, a presentation over a pushed screen,
/// nested SwiftUI views and prefixed Objective-C methods, with the event each must give.
@Suite("Line styles: more public logs")
struct MorePublicLogStyleTests {
    static func summaries(_ line: String) throws -> [String] {
        try ConsoleLogParser().parse(lines: [line]).events.map(\.summary)
    }

    @Test("a lifecycle name inside a URL is part of an address, not a callback", arguments: [
        "# Source: https://android.benigumo.com/20240328/onappear-onchange-task (the order of three SwiftUI modifiers)",
        "GET https://example.com/docs/viewDidLoad-guide 200",
        "open myapp://settings/present(sheet)",
    ])
    func urls(line: String) throws {
        #expect(try Self.summaries(line) == [])
    }

    @Test("a name before a URL still counts", arguments: [
        ("WebViewController viewDidLoad https://example.com/onappear", "WebViewController#1 viewDidLoad"),
        ("viewDidAppear: https://example.com/", "(anonymous)#1 viewDidAppear"),
    ])
    func nameBeforeURL(line: String, summary: String) throws {
        #expect(try Self.summaries(line) == [summary])
    }

    @Test("styles of the new public logs", arguments: [
        ("// Text onAppear", "Text.onAppear"),
        ("2021-02-20 16:53:40.035304+0800 ViewControllerLifyCycle[6878:952029] 方法:-[ViewController viewWillDisappear:]",
         "ViewController#1 viewWillDisappear"),
        ("2015-02-12 12:46:01.655 SplitViewControllerRotationCallbackCalledTwice[66805:1957569] Called -[ContentViewController didRotateFromInterfaceOrientation:]",
         "mark uikit.callback method=didRotate(from:) of=UIViewController @ ContentViewController#1"),
        ("vc1 – viewDidDisappear", "vc1#1 viewDidDisappear"),
        ("applicationDidEnterBackground(_:)", "applicationDidEnterBackground(_:)"),
        ("SecondViewController viewDidLoad called", "SecondViewController#1 viewDidLoad"),
    ])
    func styles(line: String, summary: String) throws {
        #expect(try Self.summaries(line) == [summary])
    }

    /// `lines` parsed, as `summary` per event and `controller firstLine line previous` per repeated load.
    static func parse(_ lines: [String]) throws -> (events: [String], repeated: [String]) {
        let result = try ConsoleLogParser().parse(lines: lines)
        return (result.events.map(\.summary), result.repeatedLoads.map {
            "\($0.controller.displayName) \($0.firstLine) \($0.line) \($0.previous?.displayName ?? "-")"
        })
    }

    @Test("a viewDidLoad after that controller disappeared is a new instance's: a push, the way back, a new push")
    func loadAfterDisappearing() throws {
        // Tests/Fixtures/public/tistory-emoji-push-pop-push.log, SecondViewController's lines.
        let parsed = try Self.parse([
            "🍀 SecondViewController viewDidLoad", "🍀 SecondViewController viewWillAppear", "🍀 SecondViewController viewDidAppear",
            "🍀 SecondViewController viewWillDisappear", "🍀 SecondViewController viewDidDisappear",
            "🍀 SecondViewController viewDidLoad", "🍀 SecondViewController viewWillAppear",
        ])
        #expect(parsed.events == [
            "SecondViewController#1 viewDidLoad", "SecondViewController#1 viewWillAppear", "SecondViewController#1 viewDidAppear",
            "SecondViewController#1 viewWillDisappear", "SecondViewController#1 viewDidDisappear",
            "SecondViewController#2 viewDidLoad", "SecondViewController#2 viewWillAppear",
        ])
        #expect(parsed.repeated == ["SecondViewController#2 1 6 SecondViewController#1"])
    }

    @Test("a second viewDidLoad stays the same controller's while it is on screen, after a memory warning, or by address")
    func loadOfTheSameController() throws {
        // On screen (appeared, or disappearing): the log does not tell one instance loaded twice from two.
        let onScreen = try Self.parse(["Detail viewDidLoad", "Detail viewDidAppear", "Detail viewWillDisappear", "Detail viewDidLoad"])
        #expect(onScreen.events.last == "Detail#1 viewDidLoad")
        #expect(onScreen.repeated == ["Detail#1 1 4 -"])
        // Off screen at a memory warning, iOS 3 to 5 may have unloaded the view without the app logging it.
        let warned = try Self.parse(["List viewDidLoad", "List viewDidDisappear", "List didReceiveMemoryWarning", "List viewDidLoad"])
        #expect(warned.events.last == "List#1 viewDidLoad")
        // A logged unload makes the reload legal and no repeated load.
        let unloaded = try Self.parse(["List viewDidLoad", "List viewDidDisappear", "List viewDidUnload", "List viewDidLoad"])
        #expect(unloaded.events.last == "List#1 viewDidLoad")
        #expect(unloaded.repeated.isEmpty)
        // Printed addresses tell the instances apart already.
        let printed = try Self.parse([
            "<MyApp.Card: 0x7fb2c8d0a2b0> viewDidLoad()", "<MyApp.Card: 0x7fb2c8d0a2b0> viewDidDisappear(_:)",
            "<MyApp.Card: 0x7fb2c8d0a2b0> viewDidLoad()", "<MyApp.Card: 0x7fb2c8d0b3c0> viewDidLoad()",
        ])
        #expect(printed.events == ["Card#1 viewDidLoad", "Card#1 viewDidDisappear", "Card#1 viewDidLoad", "Card#2 viewDidLoad"])
        #expect(printed.repeated.isEmpty)
    }

    @Test("a bare `[PID:thread]` prefix is the process, never a `[Tag]` controller", arguments: [
        // Tests/Fixtures/public/devtang-ios5-containment-memory-warning.log
        ("[7397:f803] -[ThirdViewController viewDidLoad]", "ThirdViewController#1 viewDidLoad"),
        ("[7397:f803] viewDidLoad", "(anonymous)#1 viewDidLoad"),
        ("[Dashboard] viewWillAppear", "Dashboard#1 viewWillAppear"),
        ("[2] viewWillAppear", "(anonymous)#1 viewWillAppear"),
    ])
    func barePIDPrefix(line: String, summary: String) throws {
        #expect(try Self.summaries(line) == [summary])
    }

    @Test("UIKit's `Received memory warning.` is the app's memory warning", arguments: [
        "[7397:f803] Received memory warning.",
        "Received memory warning.",
        "2012-02-06 21:19:00.123 ChildViewControllerTest[7397:f803] Received memory warning.",
    ])
    func receivedMemoryWarning(line: String) throws {
        #expect(try Self.summaries(line) == ["applicationDidReceiveMemoryWarning(_:)"])
    }

    @Test("after the app's memory warning, a hidden controller's second viewDidLoad is its own again")
    func loadAfterAppMemoryWarning() throws {
        let parsed = try Self.parse(["List viewDidLoad", "List viewDidDisappear", "Received memory warning.", "List viewDidLoad"])
        #expect(parsed.events.last == "List#1 viewDidLoad")
    }
}

