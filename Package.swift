// swift-tools-version:6.0
//
// Lifetrace: an event-sourced recorder and replayer of UIViewController lifecycle traces.
// Module graph (dependencies point one way; see docs/ARCHITECTURE.md):
//
//   TraceModel ─► TraceLog ─► Replay ─► Audit
//        │            │          │
//        │            └────► Recorder ─► Simulator, AdapterCore ─► LifetraceUIKit
//        └─► ConsoleImport             Replay, Audit ─► TraceViews (Perfetto export, HTML report)
//   Audit, ArgumentParsing ─► RuleLanguage (rule files compiled to audit rules)
//   ArgumentParsing ─► LifetraceCLI (uses all) ─► lifetrace
import PackageDescription

let package = Package(
    name: "Lifetrace",
    // Recorder and LifetraceUIKit use the Synchronization module (`Mutex`, `Atomic`), available from iOS 18 and
    // macOS 15 (Apple's Synchronization documentation). No effect on Linux.
    platforms: [.iOS(.v18), .macOS(.v15)],
    products: [
        .executable(name: "lifetrace", targets: ["lifetrace"]),
        .executable(name: "lifetrace-bench", targets: ["lifetrace-bench"]),
        .library(name: "TraceModel", targets: ["TraceModel"]),
        .library(name: "TraceLog", targets: ["TraceLog"]),
        .library(name: "Recorder", targets: ["Recorder"]),
        .library(name: "Replay", targets: ["Replay"]),
        .library(name: "Audit", targets: ["Audit"]),
        .library(name: "AdapterCore", targets: ["AdapterCore"]),
        .library(name: "LifetraceUIKit", targets: ["LifetraceUIKit"]),
        .library(name: "ConsoleImport", targets: ["ConsoleImport"]),
        .library(name: "LifetraceAudit", targets: ["LifetraceAudit"]),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(name: "TraceModel", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "TraceLog", dependencies: ["TraceModel", "CZlib"]),
        .target(name: "Replay", dependencies: ["TraceModel", "TraceLog"]),
        .target(name: "Recorder", dependencies: ["TraceModel", "TraceLog", "Replay"]),
        .target(name: "Simulator", dependencies: ["TraceModel", "TraceLog", "Recorder"]),
        .target(name: "Audit", dependencies: ["TraceModel", "TraceLog", "Replay"]),
        .target(name: "ConsoleImport", dependencies: ["TraceModel"]),
        .target(name: "TraceViews", dependencies: ["TraceModel", "TraceLog", "Replay", "Audit"]),
        // The iOS adapter's decisions, in plain Swift over a protocol of what UIKit exposes (tested on Linux with
        // fakes); LifetraceUIKit is the Apple-only layer that calls it from the replaced UIKit methods.
        .target(name: "AdapterCore", dependencies: ["TraceModel", "Recorder"]),
        .target(name: "LifetraceUIKit", dependencies: ["TraceModel", "Recorder", "AdapterCore"]),
        // One call for library users: audit a trace, a JSON Lines export or a console log (`FileAuditor`).
        .target(name: "LifetraceAudit", dependencies: ["Audit", "ConsoleImport", "TraceLog", "TraceModel"]),
        .target(name: "ArgumentParsing"),
        .target(name: "RuleLanguage", dependencies: ["Audit", "Replay", "TraceModel", "ArgumentParsing"]),
        .target(
            name: "LifetraceCLI",
            dependencies: [
                "ArgumentParsing", "TraceModel", "TraceLog", "Replay", "Recorder",
                "Simulator", "Audit", "ConsoleImport", "TraceViews", "RuleLanguage",
            ]
        ),
        .target(
            name: "LifetraceTestSupport",
            dependencies: ["TraceModel", "TraceLog", "Recorder", "Simulator"]
        ),
        .executableTarget(name: "lifetrace", dependencies: ["LifetraceCLI"]),
        .executableTarget(
            name: "lifetrace-bench",
            dependencies: [
                "TraceModel", "TraceLog", "Replay", "Recorder", "Simulator", "Audit", "CZlib", "LifetraceCLI", "RuleLanguage",
            ]
        ),
        .testTarget(name: "TraceModelTests", dependencies: ["TraceModel"]),
        .testTarget(
            name: "TraceLogTests",
            dependencies: ["TraceLog", "TraceModel", "LifetraceTestSupport"]
        ),
        .testTarget(
            name: "ReplayTests",
            dependencies: ["Replay", "TraceLog", "TraceModel", "LifetraceTestSupport"]
        ),
        .testTarget(
            name: "RecorderTests",
            dependencies: ["Recorder", "TraceLog", "TraceModel", "LifetraceTestSupport"]
        ),
        .testTarget(
            name: "SimulatorTests",
            dependencies: ["Simulator", "Recorder", "Replay", "TraceLog", "TraceModel", "LifetraceTestSupport"]
        ),
        .testTarget(
            name: "AuditTests",
            dependencies: ["Audit", "Replay", "TraceLog", "TraceModel", "LifetraceTestSupport"]
        ),
        .testTarget(
            name: "AdapterCoreTests",
            dependencies: [
                "AdapterCore", "Recorder", "Replay", "Simulator", "TraceModel", "LifetraceTestSupport",
            ]
        ),
        .testTarget(name: "ConsoleImportTests", dependencies: ["ConsoleImport", "TraceModel"]),
        .testTarget(name: "LifetraceAuditTests", dependencies: ["LifetraceAudit", "Audit", "TraceLog", "TraceModel"]),
        .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
        .testTarget(
            name: "TraceViewsTests",
            dependencies: ["TraceViews", "Audit", "Replay", "TraceLog", "TraceModel", "LifetraceTestSupport"]
        ),
        .testTarget(
            name: "RuleLanguageTests",
            dependencies: ["RuleLanguage", "Audit", "Replay", "TraceLog", "TraceModel", "ConsoleImport", "LifetraceTestSupport"]
        ),
        .testTarget(
            name: "LifetraceCLITests",
            dependencies: [
                "LifetraceCLI", "TraceLog", "TraceModel", "LifetraceTestSupport", "ConsoleImport", "Replay", "Audit", "Recorder",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
