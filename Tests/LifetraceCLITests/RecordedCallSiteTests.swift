import Foundation
import Recorder
import Testing
import TraceLog
import TraceModel
@testable import LifetraceCLI

/// The cancelled swipe-back recorded through the recorder's API: each mark captures its call site, and the SARIF
/// report (valid against the SARIF 2.1.0 schema) points at the Swift line of the `save` call in this file.
@Suite("recorded call sites point findings at the app's code")
struct RecordedCallSiteTests {
    /// The story of docs' cancelled swipe-back: NoteEditorViewController saves its draft only in viewWillDisappear,
    /// the pop is cancelled, a later edit is lost in the background. Returns the line of the `save` call.
    static func record(to path: String) throws -> UInt {
        let recorder = try Recorder(path: path)
        let list = recorder.registry.register(typeName: "NotesListViewController")
        let editor = recorder.registry.register(typeName: "NoteEditorViewController")
        let navigation = recorder.registry.register(typeName: "UINavigationController")
        recorder.setRoot(navigation)
        recorder.pushViewController(list, onto: navigation, animated: false)
        recorder.viewDidLoad(list) {}
        recorder.viewWillAppear(list, animated: false) {}
        recorder.viewDidAppear(list, animated: false) {}
        recorder.pushViewController(editor, onto: navigation, animated: true)
        recorder.viewDidLoad(editor) {}
        recorder.viewWillDisappear(list, animated: true) {}
        recorder.viewWillAppear(editor, animated: true) {}
        recorder.viewDidDisappear(list, animated: true) {}
        recorder.viewDidAppear(editor, animated: true) {}
        recorder.edit(key: "draft", controller: editor)
        // The swipe back begins: the editor saves in viewWillDisappear only.
        recorder.interactiveTransitionBegan(from: editor, to: list, in: navigation)
        var saveLine: UInt = 0
        recorder.viewWillDisappear(editor, animated: true) {
            saveLine = #line + 1
            recorder.save(key: "draft", critical: true, controller: editor)
        }
        recorder.viewWillAppear(list, animated: true) {}
        // The finger goes back: cancelled.
        recorder.interactiveTransitionCancelled(from: editor, to: list, in: navigation)
        recorder.viewWillDisappear(list, animated: true) {}
        recorder.viewDidDisappear(list, animated: true) {}
        recorder.viewWillAppear(editor, animated: true) {}
        recorder.viewDidAppear(editor, animated: true) {}
        recorder.edit(key: "draft", controller: editor)
        recorder.sceneWillResignActive("main")
        recorder.sceneDidEnterBackground("main")
        try recorder.close()
        return saveLine
    }

    @Test("SARIF validates and its primary location is this file's line of the save call; the trace event is related")
    func sarif() throws {
        let scratch = try CLIScratch("callsite")
        let trace = scratch.path("swipe.lifetrace")
        let saveLine = try Self.record(to: trace)
        let result = runCLI(["audit", trace, "--format", "sarif"])
        #expect(result.code == .problemFound, "\(result.err)")
        let file = scratch.path("report.sarif")
        try result.out.write(toFile: file, atomically: false, encoding: .utf8)
        let validation = try ExternalValidator.validateJSON(file, schema: SARIFLocationTests.schema)
        #expect(validation.status == 0, "\(validation.output)")

        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let save = try #require(results.first { $0["ruleId"] as? String == "critical_save_placement" })
        let physical = try #require(((save["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
        #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "Tests/LifetraceCLITests/RecordedCallSiteTests.swift")
        #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == Int(saveLine))
        // The trace event is a related location, linked from the message.
        let related = try #require(save["relatedLocations"] as? [[String: Any]])
        let traceEvent = try #require(related.last)
        let uri = ((traceEvent["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
        #expect(uri == "file://" + trace)
        let message = try #require((save["message"] as? [String: Any])?["text"] as? String)
        #expect(message.contains("](\(related.count))"))

        // GitHub annotations and the text report name the same file and line.
        let github = runCLI(["audit", trace, "--format", "github"]).out
        #expect(github.contains("::error file=Tests/LifetraceCLITests/RecordedCallSiteTests.swift,line=\(saveLine),title=critical_save_placement::"), "\(github)")
        let text = runCLI(["audit", trace]).out
        #expect(text.contains("source: Tests/LifetraceCLITests/RecordedCallSiteTests.swift:\(saveLine)"), "\(text)")
    }

    @Test("a callback seen only through swizzling has no call site: the trace file, and the controller type as a logical location")
    func callbackWithoutCallSite() throws {
        let scratch = try CLIScratch("callsite-none")
        let trace = scratch.path("swipe.lifetrace")
        _ = try Self.record(to: trace)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(runCLI(["audit", trace, "--format", "sarif"]).out.utf8)) as? [String: Any])
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        // unsaved_edit_at_exit points at the scene's background callback, which has no call site.
        let exit = try #require(results.first { $0["ruleId"] as? String == "unsaved_edit_at_exit" })
        let location = try #require((exit["locations"] as? [[String: Any]])?.first)
        let uri = ((location["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
        #expect(uri == "file://" + trace)
        let logical = try #require(location["logicalLocations"] as? [[String: Any]])
        #expect(logical.first?["name"] as? String == "NoteEditorViewController")
    }

    @Test("the recorded events carry the call site: #fileID and line")
    func recordedSource() throws {
        let scratch = try CLIScratch("callsite-events")
        let trace = scratch.path("swipe.lifetrace")
        let saveLine = try Self.record(to: trace)
        var sources: [EventSource] = []
        try TraceReader(path: trace).forEachEvent { _, event in
            if case .mark(let mark) = event.payload, mark.name == MarkName.save, let source = event.source { sources.append(source) }
        }
        #expect(sources == [EventSource(file: "LifetraceCLITests/RecordedCallSiteTests.swift", line: UInt32(saveLine))])
    }
}
