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
}
