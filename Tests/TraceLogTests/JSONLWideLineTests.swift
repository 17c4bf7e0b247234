import Foundation
import Testing

@testable import TraceLog

/// A JSON line of very many members: every check on it is linear. The repeat check scanned the members seen so
/// far for each new one, so a line of 80,000 members took 112 s only to report its missing `t_ns` (20,000: 8 s).
@Suite("JSON Lines: a line of 80,000 members is checked in linear time")
struct JSONLWideLineTests {
    static func line(members: Int, repeating repeated: String? = nil) -> [UInt8] {
        var text = "{"
        text.reserveCapacity(members * 16)
        for index in 0..<members { text += "\"member\(index)\":\(index)," }
        if let repeated { text += "\"\(repeated)\":1," }
        text += "\"event\":\"viewDidLoad\"}\n"
        return Array(text.utf8)
    }

    static func firstError(_ bytes: [UInt8]) -> JSONLError? {
        do {
            var reader = try JSONLReader(bytes: bytes, file: "wide.jsonl")
            while try reader.next() != nil {}
            return nil
        } catch {
            return error
        }
    }

    @Test("80,000 members: the missing t_ns is reported within 20 s (quadratic took minutes)")
    func missingTime() throws {
        let clock = ContinuousClock()
        var error: JSONLError?
        let elapsed = clock.measure { error = Self.firstError(Self.line(members: 80_000)) }
        #expect(error?.message.contains("missing \"t_ns\"") == true, "\(String(describing: error))")
        #expect(error?.line == 1)
        #expect(elapsed < .seconds(20), "took \(elapsed)")
    }

    @Test("80,000 members with one repeated at the end: named, within 20 s")
    func repeatedMember() throws {
        let clock = ContinuousClock()
        var error: JSONLError?
        let elapsed = clock.measure { error = Self.firstError(Self.line(members: 80_000, repeating: "member17")) }
        #expect(error?.message.contains("member \"member17\" appears twice") == true, "\(String(describing: error))")
        #expect(elapsed < .seconds(20), "took \(elapsed)")
    }
}
