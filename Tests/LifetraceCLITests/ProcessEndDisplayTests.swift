import Foundation
import Testing

@testable import LifetraceCLI

/// A trace with two recording runs: the second `runStarted` ends the first process (docs/REPLAY.md, "Recording
/// runs"). Its controllers are shown as ended with their process, not as dead, and their timeline lanes close there.
@Suite("controllers that ended with their process")
struct ProcessEndDisplayTests {
    /// The first run: a navigation controller with a list, an editor pushed on it; the second run starts at 12 s.
    static let lines = [
        #"{"t_ns":0,"event":"runStarted","phase":"instant","kind":"recorder","process":"first"}"#,
        #"{"t_ns":1000000,"event":"setRoot","phase":"instant","kind":"container","controllers":[{"name":"UINavigationController#1"}]}"#,
        #"{"t_ns":2000000,"event":"viewWillAppear","phase":"begin","controller":"UINavigationController#1","animated":false}"#,
        #"{"t_ns":2100000,"event":"viewWillAppear","phase":"end","controller":"UINavigationController#1","animated":false}"#,
        #"{"t_ns":3000000,"event":"viewDidAppear","phase":"begin","controller":"UINavigationController#1","animated":false}"#,
        #"{"t_ns":3100000,"event":"viewDidAppear","phase":"end","controller":"UINavigationController#1","animated":false}"#,
        #"{"t_ns":4000000000,"event":"init","phase":"begin","controller":"EditorViewController#2"}"#,
        #"{"t_ns":4000100000,"event":"init","phase":"end","controller":"EditorViewController#2"}"#,
        #"{"t_ns":5000000000,"event":"deinit","phase":"begin","controller":"EditorViewController#2"}"#,
        #"{"t_ns":5000100000,"event":"deinit","phase":"end","controller":"EditorViewController#2"}"#,
        #"{"t_ns":12000000000,"event":"runStarted","phase":"instant","kind":"recorder","process":"second"}"#,
        #"{"t_ns":12500000000,"event":"viewDidLoad","phase":"begin","controller":"ListViewController#3"}"#,
        #"{"t_ns":12600000000,"event":"viewDidLoad","phase":"end","controller":"ListViewController#3"}"#,
        #"{"t_ns":20000000000,"event":"didBecomeActive","phase":"instant","kind":"app"}"#,
    ]

    static func trace() throws -> (CLIScratch, String) {
        let scratch = try CLIScratch("runs")
        let path = scratch.path("runs.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        return (scratch, path)
    }

    @Test("state lists them under 'ended with their process at …', apart from the dead, in text and JSON")
    func state() throws {
        let (scratch, path) = try Self.trace()
        _ = scratch
        let text = runCLI(["state", path])
        #expect(text.code == .success, "\(text.err)")
        let lines = text.out.split(separator: "\n").map(String.init)
        let dead = try #require(lines.firstIndex(of: "dead"))
        #expect(lines[dead + 1].hasPrefix("  EditorViewController#2") && lines[dead + 1].contains("deinit at 5.000 s"))
        let ended = try #require(lines.firstIndex { $0.hasPrefix("ended with their process at 12.000 s") }, "\(text.out)")
        #expect(lines[ended + 1].hasPrefix("  UINavigationController#1  appeared"), "\(text.out)")
        #expect(!lines[(dead + 1)...].contains { $0.contains("UINavigationController#1") && $0.contains("deinit") })

        let json = runCLI(["state", path, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let controllers = try #require(object["controllers"] as? [[String: Any]])
        let status = Dictionary(uniqueKeysWithValues: controllers.map { ($0["name"] as! String, $0["status"] as! String) })
        #expect(status == ["UINavigationController#1": "process_ended", "EditorViewController#2": "deinitialized", "ListViewController#3": "alive"])
    }

    @Test("timeline closes their lanes at the process end (~), and --spans and --visible end there")
    func timeline() throws {
        let (scratch, path) = try Self.trace()
        _ = scratch
        let result = runCLI(["timeline", path, "--width", "41", "--spans"])
        #expect(result.code == .success, "\(result.err)")
        let lane = try #require(result.out.split(separator: "\n").first { $0.hasPrefix("UINavigationController#1") }.map(String.init))
        let cells = Array(lane[lane.index(after: lane.firstIndex(of: "|")!)...].dropLast())
        // 41 columns over 20 s: 0.5 s per column; 12 s is column 24, nothing is drawn after it.
        #expect(cells.count == 41)
        #expect(cells[24] == "~", "\(lane)")
        #expect(cells[25...].allSatisfy { $0 == " " }, "\(lane)")
        #expect(cells[10] == "#")
        #expect(result.out.contains("  0.003 s – 12.000 s  appeared\n  12.000 s  process ended"), "\(result.out)")

        let visible = runCLI(["events", path, "--visible", "UINavigationController#1"])
        #expect(visible.out == "UINavigationController#1 appeared:\n  0.003 s – 12.000 s  (11.997 s)\n", "\(visible.out)")
    }
}
