// A deterministic console log in the line styles of the real cases (Tests/Fixtures/cases), for the `import`
// benchmark and for measuring `lifetrace import` by hand (`lifetrace-bench --write-console-log FILE LINES`).

import Foundation
import Simulator

/// Writes `lineCount` lines of a console log: NSLog-dated lines (`2025-03-14 09:12:00.000114+0100
/// Notes[2231:90112] …`) whose messages use the spellings of the real cases (`Class viewDidLoad`,
/// `-[Class viewWillAppear:]`, `Module.Class.viewDidAppear(_:)`, `[Class] viewWillDisappear`, `Class |
/// method`, `<App.Class: 0x…> viewDidLoad()`), with about one line in five that is app noise (network, layout
/// warnings) and one in fifty a `saveDraft` line for `--mark`.
///
/// Controllers: `controllerTypes` types, each living through init → … → deinit cycles, several alive at once,
/// so the importer's live set stays small while the log grows. Times rise by 0.1–40 ms per line. The same
/// arguments give the same bytes.
struct ConsoleLogGenerator {
    var lineCount: Int
    var seed: UInt64 = 8
    var controllerTypes = 50

    static let lifecycle = [
        "init(coder:)", "loadView", "viewDidLoad", "viewWillAppear(_:)", "viewIsAppearing", "viewWillLayoutSubviews",
        "viewDidLayoutSubviews", "viewDidAppear(_:)", "viewWillDisappear(_:)", "viewDidDisappear(_:)", "deinit",
    ]
    static let objectiveC = [
        "initWithCoder:", "loadView", "viewDidLoad", "viewWillAppear:", "viewIsAppearing:", "viewWillLayoutSubviews",
        "viewDidLayoutSubviews", "viewDidAppear:", "viewWillDisappear:", "viewDidDisappear:", "dealloc",
    ]
    static let noise = [
        "[network] GET https://api.example.com/v2/notes?page=3 200 (412 ms)",
        "[UIKit] Unable to simultaneously satisfy constraints. Probably at least one of the constraints in the following list is one you don't want.",
        "Task <8B1C2F7A-4C1E-4E6F-9D7A-3B2C1D0E9F8A>.<4> finished with error [-999]",
        "[Analytics] event screen_view sent (queue 3)",
        "CoreData: annotation: fetch request elapsed time 0.0012 s, 25 rows",
    ]

    /// Calls `body` with each line's UTF-8 bytes, newline included.
    func generate(_ body: ([UInt8]) throws -> Void) rethrows {
        var random = SplitMix64(seed: seed)
        // 2025-03-14 09:12:00 local (+0100), in microseconds since midnight.
        var micros: UInt64 = (9 * 3600 + 12 * 60) * 1_000_000
        var day = 14
        // Each type's current instance: its step in the lifecycle (nil = not alive) and its message style.
        var step = [Int?](repeating: nil, count: controllerTypes)
        var style = [Int](repeating: 0, count: controllerTypes)
        let names = (0..<controllerTypes).map { "Screen\($0)ViewController" }
        for _ in 0..<lineCount {
            micros += 100 + random.next() % 40_000
            if micros >= 86_400_000_000 {
                micros -= 86_400_000_000
                day += 1
            }
            let message: String
            let roll = random.next() % 100
            if roll < 20 {
                message = Self.noise[Int(random.next() % UInt64(Self.noise.count))]
            } else if roll < 22 {
                message = "saveDraft key=draft length=\(random.next() % 4000)"
            } else {
                let index = Int(random.next() % UInt64(controllerTypes))
                let current: Int
                if let now = step[index] {
                    current = now + 1
                } else {
                    current = 0
                    style[index] = Int(random.next() % 6)
                }
                step[index] = current + 1 < Self.lifecycle.count ? current : nil
                message = Self.message(type: names[index], step: current, style: style[index], address: Self.address(index))
            }
            let line = "2025-03-\(day) \(Self.clock(micros))+0100 Notes[2231:90112] \(message)\n"
            try body(Array(line.utf8))
        }
    }

    /// The address printed for type `index`'s instance: one per type (its instances live one after another,
    /// so the next one may reuse it, as after a dealloc), all 12 hex digits like a real heap address.
    static func address(_ index: Int) -> String {
        "0x" + String(0x7fb2_c8d0_a2b0 + UInt64(index) * 0x100, radix: 16)
    }

    static func message(type: String, step: Int, style: Int, address: String) -> String {
        switch style {
        case 0: "\(type) \(lifecycle[step])"
        case 1: "-[\(type) \(objectiveC[step])]"
        case 2: "Notes.\(type).\(lifecycle[step])"
        case 3: "[\(type)] \(lifecycle[step])"
        case 4: "\(type) | \(lifecycle[step])"
        default: "<Notes.\(type): \(address)> \(lifecycle[step])"
        }
    }

    /// `HH:MM:SS.ffffff` for microseconds since midnight.
    static func clock(_ micros: UInt64) -> String {
        func pad(_ value: UInt64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let seconds = micros / 1_000_000
        return "\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(micros % 1_000_000, 6))"
    }

    /// Writes the log to `path`.
    func write(to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
            throw BenchError("cannot write \(path)")
        }
        defer { try? file.close() }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        try generate { line in
            buffer += line
            if buffer.count >= 1 << 20 {
                try file.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try file.write(contentsOf: buffer)
    }
}
