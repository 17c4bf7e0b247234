import Testing
import TraceLog
import TraceModel

/// One serial names one controller in a trace: a JSONL file that gives one serial to two types would make
/// Replay merge them (B's deinit killing A), so the reader refuses it with the line.
@Suite("JSONL: one serial, one controller")
struct JSONLSerialCollisionTests {
    func read(_ lines: [String]) throws(JSONLError) -> [Event] {
        var reader = try JSONLReader(bytes: Array((lines.joined(separator: "\n") + "\n").utf8), file: "in.jsonl")
        return try reader.readAll()
    }

    @Test("a serial reused for another type is an error naming the line and both types",
          arguments: [
            #"{"t_ns":20,"event":"deinit","phase":"instant","kind":"callback","controller":"B#1"}"#,
            #"{"t_ns":20,"event":"deinit","phase":"instant","kind":"callback","controller":"B#1","serial":1,"type":"B"}"#,
          ])
    func reusedSerial(second: String) {
        let first = #"{"t_ns":10,"event":"viewWillAppear","phase":"instant","kind":"callback","controller":"A#1"}"#
        #expect {
            _ = try read([first, second])
        } throws: { error in
            let failure = error as? JSONLError
            return failure?.line == 2 && "\(error)".contains("in.jsonl:2") && "\(error)".contains("A#1")
        }
    }

    @Test("the same controller named again, by name or by serial and type, is accepted")
    func sameController() throws {
        let events = try read([
            #"{"t_ns":10,"event":"viewWillAppear","phase":"instant","kind":"callback","controller":"A#1"}"#,
            #"{"t_ns":20,"event":"viewDidAppear","phase":"instant","kind":"callback","controller":"A#1","serial":1,"type":"A"}"#,
            #"{"t_ns":30,"event":"viewDidLoad","phase":"instant","kind":"callback","controller":"Unnumbered"}"#,
        ])
        #expect(events.count == 3)
    }

    @Test("serial 0 is refused (serials start at 1), given as a member, in a controller object or as Type#0",
          arguments: [
            #"{"t_ns":10,"event":"viewDidLoad","phase":"instant","controller":"A#0","serial":0,"type":"A"}"#,
            #"{"t_ns":10,"event":"addChild","phase":"instant","container":{"serial":0,"type":"P"},"controllers":[]}"#,
            #"{"t_ns":10,"event":"viewDidLoad","phase":"instant","controller":"A#0"}"#,
            #"{"t_ns":10,"event":"viewDidLoad","phase":"instant","controller":"A#00"}"#,
          ])
    func serialZero(line: String) {
        let ok = #"{"t_ns":5,"event":"viewDidLoad","phase":"instant","controller":"B#1","serial":1,"type":"B"}"#
        #expect {
            _ = try read([ok, line])
        } throws: { error in
            let failure = error as? JSONLError
            return failure?.code == .badField && failure?.line == 2 && "\(error)".hasPrefix("in.jsonl:2: ")
                && "\(error)".contains("serials start at 1")
        }
    }

    @Test("after serial 2^32 − 1 a controller given by name only gets no serial 0: an error names the line")
    func noSerialAfterTheLargest() {
        let lines = [
            #"{"t_ns":10,"event":"viewDidLoad","phase":"instant","controller":"A#4294967295","serial":4294967295,"type":"A"}"#,
            #"{"t_ns":20,"event":"viewDidLoad","phase":"instant","controller":"Unnumbered"}"#,
        ]
        #expect {
            _ = try read(lines)
        } throws: { error in
            (error as? JSONLError)?.line == 2 && "\(error)".contains("4294967295")
        }
        // The largest serial itself is fine.
        #expect((try? read([lines[0]]))?.first?.controller?.serial == .max)
    }
}
