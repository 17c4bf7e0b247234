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
}
