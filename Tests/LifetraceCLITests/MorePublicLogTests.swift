import Audit
import ConsoleImport
import Foundation
import Replay
import Testing
import TraceModel
@testable import LifetraceCLI

/// The logs of Tests/Fixtures/public added for the styles the first seven lacked (iPad scenes, memory warnings,
/// a placeholder container behind a modal, tab bars, page view controllers, scene sessions, split views, a
/// presentation over a pushed screen, nested SwiftUI views, two runs pasted together), run end to end:
/// `lifetrace import` with no flags, read back, replayed, audited with the default rules. Each row gives every
/// event, the controllers and the state the log shows at its end, and the findings; sources are in each file's
/// header and in Tests/Fixtures/public/README.md.
@Suite("Public logs, more styles: import + replay + audit")
final class MorePublicLogTests {
    struct Expected: Sendable, CustomStringConvertible {
        var name: String
        /// `seconds summary` of every event.
        var events: [String]
        /// `displayName appearance` for each controller at the end (every controller the trace has).
        var finalControllers: [String]
        /// `scene state` for each scene at the end, when the log has scenes.
        var finalScenes: [String] = []
        /// `rule severity controller seconds callback` per finding.
        var findings: [String] = []
        var description: String { name }
    }

    static let expected: [Expected] = [
        Expected(
            name: "apple-forums-two-scene-instances",
            events: [
                "0.000 sceneWillEnterForeground(_:) scene=UIWindowScene 0x10270b110",
                "0.001 sceneDidBecomeActive(_:) scene=UIWindowScene 0x10270b110",
                "0.002 sceneWillResignActive(_:) scene=UIWindowScene 0x10270b110",
                "0.003 sceneDidDisconnect(_:) scene=UIWindowScene 0x10270b110",
                "0.004 sceneWillEnterForeground(_:) scene=UIWindowScene 0x103e06510",
                "0.005 sceneDidEnterBackground(_:) scene=UIWindowScene 0x103e06510",
                "0.006 sceneWillEnterForeground(_:) scene=UIWindowScene 0x106007560",
                "0.007 sceneDidBecomeActive(_:) scene=UIWindowScene 0x106007560",
                "0.008 sceneWillResignActive(_:) scene=UIWindowScene 0x106007560",
                "0.009 sceneDidDisconnect(_:) scene=UIWindowScene 0x106007560",
            ],
            finalControllers: [],
            finalScenes: [
                "UIWindowScene 0x10270b110 disconnected", "UIWindowScene 0x103e06510 background",
                "UIWindowScene 0x106007560 disconnected",
            ]),
        Expected(
            name: "bhags-ipad-rotation-bounds",
            events: [
                "0.000 (anonymous)#1 viewDidLoad",
                "0.001 mark uikit.callback method=shouldAutorotate(to:) of=UIViewController @ (anonymous)#1",
                "0.002 mark uikit.callback method=shouldAutorotate(to:) of=UIViewController @ (anonymous)#1",
                "0.003 (anonymous)#1 viewWillAppear",
                "0.004 mark uikit.callback method=shouldAutorotate(to:) of=UIViewController @ (anonymous)#1",
                "0.005 mark uikit.callback method=shouldAutorotate(to:) of=UIViewController @ (anonymous)#1",
                "0.006 mark uikit.callback method=willRotate(to:duration:) of=UIViewController @ (anonymous)#1",
                "0.007 (anonymous)#1 viewWillLayoutSubviews", "0.008 (anonymous)#1 viewDidLayoutSubviews",
                "0.009 mark uikit.callback method=willAnimateRotation(to:duration:) of=UIViewController @ (anonymous)#1",
                "0.010 mark uikit.callback method=shouldAutorotate(to:) of=UIViewController @ (anonymous)#1",
                "0.011 (anonymous)#1 viewDidAppear",
            ],
            finalControllers: ["(anonymous)#1 appeared"]),
        Expected(
            name: "qanswer-landscape-view-frames",
            events: ["0.000 (anonymous)#1 viewDidLoad", "0.001 (anonymous)#1 viewWillAppear", "0.002 (anonymous)#1 viewDidAppear"],
            finalControllers: ["(anonymous)#1 appeared"]),
        Expected(
            name: "exchangetuts-ipad-did-rotate",
            events: ["0.000 mark uikit.callback method=didRotate(from:) of=UIViewController @ INViewController#1"],
            finalControllers: ["INViewController#1 unknown"]),
        Expected(
            name: "velog-fullscreen-modal-short-names",
            events: [
                "0.000 fist vc#1 viewWillDisappear", "0.001 second vc#2 viewWillAppear", "0.002 second vc#2 viewIsAppearing",
                "0.003 second vc#2 viewDidAppear", "0.004 first vc#3 viewDidDisappear",
            ],
            finalControllers: ["fist vc#1 disappearing", "second vc#2 appeared", "first vc#3 disappeared"]),
        Expected(
            name: "chisel-lldb-memory-warning",
            events: ["0.000 (anonymous)#1 didReceiveMemoryWarning", "0.001 (anonymous)#1 didReceiveMemoryWarning"],
            finalControllers: ["(anonymous)#1 unknown"]),
        Expected(
            name: "coconutkit-placeholder-modal-return",
            events: [
                "0.000 LifeCycleTestViewController#1 viewWillDisappear animated=true",
                "0.404 LifeCycleTestViewController#1 viewDidDisappear animated=true",
                "22.477 mark uikit.callback method=shouldAutorotate(to:) of=UIViewController @ LifeCycleTestViewController#1",
                "22.479 LifeCycleTestViewController#1 viewWillAppear animated=true",
            ],
            finalControllers: ["LifeCycleTestViewController#1 appearing"]),
        Expected(
            name: "pgzxc-tab-bar-objc-switch",
            events: [
                "0.000 MessageViewController#1 viewDidLoad", "0.001 MessageViewController#1 viewWillAppear",
                "0.002 MessageViewController#1 viewDidAppear", "0.003 ContactViewController#2 viewDidLoad",
                "0.004 ContactViewController#2 viewWillAppear", "0.005 MessageViewController#1 viewWillDisappear",
                "0.006 MessageViewController#1 viewDidDisappear", "0.007 ContactViewController#2 viewDidAppear",
            ],
            finalControllers: ["MessageViewController#1 disappeared", "ContactViewController#2 appeared"]),
        Expected(
            name: "til-ipad-scene-sessions",
            events: [
                "0.000 application(_:didFinishLaunchingWithOptions:)", "0.001 scene(_:willConnectTo:options:) scene=default",
                "0.002 sceneWillEnterForeground(_:) scene=default", "0.003 sceneDidBecomeActive(_:) scene=default",
                "0.004 application(_:didFinishLaunchingWithOptions:)", "0.005 application(_:configurationForConnecting:options:)",
                "0.006 scene(_:willConnectTo:options:) scene=default", "0.007 sceneWillEnterForeground(_:) scene=default",
                "0.008 sceneDidBecomeActive(_:) scene=default", "0.009 application(_:configurationForConnecting:options:)",
                "0.010 scene(_:willConnectTo:options:) scene=default", "0.011 sceneWillEnterForeground(_:) scene=default",
                "0.012 sceneDidBecomeActive(_:) scene=default",
            ],
            finalControllers: [],
            finalScenes: ["default active"]),
        Expected(
            name: "so-48653763-page-view-controller-child",
            events: [
                "0.000 (anonymous)#1 viewDidLoad", "0.001 (anonymous)#1 viewWillAppear", "0.002 (anonymous)#1 viewDidAppear",
                "0.003 (anonymous)#1 viewWillLayoutSubviews", "0.004 (anonymous)#1 viewDidLayoutSubviews",
                "0.005 (anonymous)#1 viewWillLayoutSubviews", "0.006 (anonymous)#1 viewDidLayoutSubviews",
            ],
            finalControllers: ["(anonymous)#1 appeared"]),
        Expected(
            name: "texture-20-pager-expected-order",
            events: [
                "0.000 A#1 viewWillDisappear", "0.001 B#2 viewWillAppear", "0.002 A#1 viewDidDisappear", "0.003 B#2 viewDidAppear",
            ],
            finalControllers: ["A#1 disappeared", "B#2 appeared"]),
        Expected(
            name: "benigumo-swiftui-nested-onappear",
            events: ["0.000 Text.onAppear", "0.001 VStack.onAppear", "0.002 Group.onAppear"],
            finalControllers: []),
        Expected(
            name: "remkoh-present-over-pushed-screen",
            events: [
                "0.000 vc1#1 loadView", "0.001 vc1#1 viewDidLoad", "0.002 vc1#1 viewWillAppear",
                "0.003 vc1#1 viewWillLayoutSubviews", "0.004 vc1#1 viewDidLayoutSubviews", "0.005 vc1#1 viewDidAppear",
                "0.006 mark uikit.callback method=prepare(for:sender:) of=UIViewController @ vc1#1",
                "0.007 vc2#2 loadView", "0.008 vc2#2 viewDidLoad", "0.009 vc1#1 viewWillDisappear", "0.010 vc2#2 viewWillAppear",
                "0.011 vc2#2 viewWillLayoutSubviews", "0.012 vc2#2 viewDidLayoutSubviews", "0.013 vc1#1 viewWillLayoutSubviews",
                "0.014 vc1#1 viewDidLayoutSubviews", "0.015 vc2#2 viewDidAppear", "0.016 vc1#1 viewDidDisappear",
                "0.017 vc3#3 loadView", "0.018 vc3#3 viewDidLoad", "0.019 vc2#2 viewWillDisappear", "0.020 vc3#3 viewWillAppear",
                "0.021 vc1#1 viewDidDisappear", "0.022 vc3#3 viewWillLayoutSubviews", "0.023 vc3#3 viewDidLayoutSubviews",
                "0.024 vc3#3 viewDidAppear", "0.025 vc2#2 viewDidDisappear",
            ],
            finalControllers: ["vc1#1 disappeared", "vc2#2 disappeared", "vc3#3 appeared"],
            findings: ["appearance_balance warning vc1#1 0.021 viewDidDisappear"]),
        Expected(
            name: "openradar-19810773-split-view-rotation-twice",
            events: [
                "0.000 mark uikit.callback method=willRotate(to:duration:) of=UIViewController @ ContentViewController#1",
                "0.001 mark uikit.callback method=willRotate(to:duration:) of=UIViewController @ ContentViewController#1",
                "0.003 mark uikit.callback method=willAnimateRotation(to:duration:) of=UIViewController @ ContentViewController#1",
                "0.006 mark uikit.callback method=willAnimateRotation(to:duration:) of=UIViewController @ ContentViewController#1",
                "0.419 mark uikit.callback method=didRotate(from:) of=UIViewController @ ContentViewController#1",
            ],
            finalControllers: ["ContentViewController#1 unknown"]),
        Expected(
            name: "openradar-51112884-split-view-tab-loaded-in-background",
            events: ["0.000 applicationDidEnterBackground(_:)", "0.001 SecondViewController#1 viewDidLoad"],
            finalControllers: ["SecondViewController#1 disappeared"]),
        Expected(
            name: "juejin-bare-selectors-push-and-back",
            events: [
                "0.000 (anonymous)#1 init", "0.008 mark uikit.callback method=loadViewIfNeeded() of=UIViewController @ (anonymous)#1",
                "0.009 (anonymous)#1 loadView", "0.009 (anonymous)#1 viewDidLoad", "0.010 (anonymous)#1 viewWillAppear",
                "0.012 (anonymous)#1 viewWillLayoutSubviews", "0.012 (anonymous)#1 viewDidLayoutSubviews",
                "0.059 (anonymous)#1 viewDidAppear", "1.285 (anonymous)#1 viewWillDisappear", "1.823 (anonymous)#1 viewDidDisappear",
                "11.789 (anonymous)#1 viewWillAppear",
                "11.790 mark uikit.callback method=loadViewIfNeeded() of=UIViewController @ (anonymous)#1",
                "12.295 (anonymous)#1 viewDidAppear",
            ],
            finalControllers: ["(anonymous)#1 appeared"]),
        Expected(
            name: "jianshu-prefixed-objc-methods-push",
            events: [
                "0.000 ViewController#1 loadView", "0.009 ViewController#1 viewDidLoad", "0.009 ViewController#1 viewWillAppear",
                "0.011 ViewController#1 viewWillLayoutSubviews", "0.011 ViewController#1 viewDidLayoutSubviews",
                "0.045 ViewController#1 viewDidAppear", "319.068 recorder run started ViewControllerLifyCycle[6878]",
                "319.068 PushTestViewController#2 loadView", "319.068 PushTestViewController#2 viewDidLoad",
                "319.068 ViewController#3 viewWillDisappear", "319.068 PushTestViewController#2 viewWillAppear",
            ],
            finalControllers: ["ViewController#1 appeared", "PushTestViewController#2 appearing", "ViewController#3 disappearing"]),
        Expected(
            name: "tistory-emoji-push-pop-push",
            events: [
                "0.000 FirstViewController#1 viewDidLoad", "0.001 FirstViewController#1 viewWillAppear",
                "0.002 FirstViewController#1 viewDidAppear", "0.003 SecondViewController#2 viewDidLoad",
                "0.004 FirstViewController#1 viewWillDisappear", "0.005 SecondViewController#2 viewWillAppear",
                "0.006 FirstViewController#1 viewDidDisappear", "0.007 SecondViewController#2 viewDidAppear",
                "0.008 SecondViewController#2 viewWillDisappear", "0.009 FirstViewController#1 viewWillAppear",
                "0.010 SecondViewController#2 viewDidDisappear", "0.011 FirstViewController#1 viewDidAppear",
                "0.012 SecondViewController#3 viewDidLoad", "0.013 FirstViewController#1 viewWillDisappear",
                "0.014 SecondViewController#3 viewWillAppear", "0.015 FirstViewController#1 viewDidDisappear",
            ],
            finalControllers: [
                "FirstViewController#1 disappeared", "SecondViewController#2 disappeared", "SecondViewController#3 appearing",
            ]),
        Expected(
            name: "devtang-ios5-containment-memory-warning",
            events: [
                "0.000 FirstViewController#1 willMove(toParent:)", "0.001 SecondViewController#2 willMove(toParent:)",
                "0.002 ThirdViewController#3 willMove(toParent:)", "0.003 ThirdViewController#3 viewDidLoad",
                "0.004 ThirdViewController#3 viewWillAppear", "0.005 ThirdViewController#3 viewDidAppear",
                "0.006 SecondViewController#2 viewDidLoad", "0.007 ThirdViewController#3 viewWillDisappear",
                "0.008 SecondViewController#2 viewWillAppear", "0.009 SecondViewController#2 viewDidAppear",
                "0.010 ThirdViewController#3 viewDidDisappear", "0.011 FirstViewController#1 viewDidLoad",
                "0.012 SecondViewController#2 viewWillDisappear", "0.013 FirstViewController#1 viewWillAppear",
                "0.014 FirstViewController#1 viewDidAppear", "0.015 SecondViewController#2 viewDidDisappear",
                "0.016 applicationDidReceiveMemoryWarning(_:)", "0.017 SecondViewController#2 viewDidUnload",
                "0.018 ThirdViewController#3 viewDidUnload",
            ],
            finalControllers: [
                "FirstViewController#1 appeared", "SecondViewController#2 disappeared", "ThirdViewController#3 disappeared",
            ]),
        Expected(
            name: "xzkit-cancelled-push-and-pop",
            events: [
                "0.000 mark uikit.callback method=navigationController(_:animationControllerFor:from:to:) of=UINavigationControllerDelegate",
                "0.001 mark uikit.callback method=navigationController(_:interactionControllerFor:) of=UINavigationControllerDelegate",
                "0.002 SampleViewController#1 viewDidLoad",
                "0.003 SampleViewController#2 viewWillDisappear",
                "0.004 SampleViewController#1 viewWillAppear",
                "0.005 mark uikit.callback method=navigationController(_:willShow:animated:) of=UINavigationControllerDelegate",
                "0.006 SampleViewController#1 viewWillLayoutSubviews",
                "0.007 SampleViewController#1 viewDidLayoutSubviews",
                "0.008 SampleViewController#1 viewWillDisappear",
                "0.009 SampleViewController#1 viewDidDisappear",
                "0.010 SampleViewController#2 viewWillAppear",
                "0.011 SampleViewController#2 viewDidAppear",
                "0.012 mark uikit.callback method=navigationController(_:animationControllerFor:from:to:) of=UINavigationControllerDelegate",
                "0.013 mark uikit.callback method=navigationController(_:interactionControllerFor:) of=UINavigationControllerDelegate",
                "0.014 SampleViewController#2 viewWillDisappear",
                "0.015 SampleViewController#3 viewWillAppear",
                "0.016 mark uikit.callback method=navigationController(_:willShow:animated:) of=UINavigationControllerDelegate",
                "0.017 SampleViewController#3 viewWillDisappear",
                "0.018 SampleViewController#3 viewDidDisappear",
                "0.019 SampleViewController#2 viewWillAppear",
                "0.020 SampleViewController#2 viewDidAppear",
            ],
            finalControllers: ["SampleViewController#1 disappeared", "SampleViewController#2 appeared", "SampleViewController#3 disappeared"]),
    ]

    let directory: URL

    init() throws {
        directory = try RealCase.temporaryDirectory()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    @Test("each log imports with the expected events, controllers, final states and findings", arguments: expected)
    func log(_ expected: Expected) throws {
        let run = try RealCase(expected.name, into: directory, fixtures: RealCase.publicDirectory)
        #expect(run.events.map { "\(run.seconds($0.timestamp)) \($0.summary)" } == expected.events)
        let end = run.finalState
        #expect(end.sortedControllers.map { "\($0.ref.displayName) \($0.appearance)" } == expected.finalControllers)
        #expect(end.scenes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" } == expected.finalScenes)
        let findings = try Auditor().audit(run.events).map {
            "\($0.ruleID) \($0.severity) \($0.controller ?? "-") \(run.seconds($0.timestamp)) \($0.callback ?? "-")"
        }
        #expect(findings == expected.findings)
    }

    @Test("no log produces a controller it does not name: every controller's type is written on one of its lines")
    func noPhantoms() throws {
        let logs = try FileManager.default.contentsOfDirectory(atPath: RealCase.publicDirectory.path).filter { $0.hasSuffix(".log") }
        #expect(logs.count >= 27)
        for log in logs {
            let name = String(log.dropLast(4))
            let text = try String(contentsOf: RealCase.publicDirectory.appendingPathComponent(log), encoding: .utf8)
            let run = try RealCase(name, into: directory, fixtures: RealCase.publicDirectory)
            for controller in run.finalState.sortedControllers {
                let ref = controller.ref
                let written = ref.typeName == ConsoleLogParser.anonymousTypeName
                    || (ref.typeName.isEmpty ? text.contains(ref.label ?? "\u{0}") : text.contains(ref.typeName))
                #expect(written, "\(log): \(ref.displayName) is not named in the log")
            }
        }
    }
}
