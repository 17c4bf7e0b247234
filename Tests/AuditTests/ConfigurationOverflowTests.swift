import Foundation
import Testing
@testable import Audit

/// A duration parameter too large for UInt64 nanoseconds is a configuration error naming the key, never a trap.
@Suite("Configuration: durations out of range")
struct ConfigurationOverflowTests {
    func error(_ text: String) -> ConfigurationError? {
        do {
            _ = try AuditConfiguration(json: Data(text.utf8), origin: ".lifetrace.json", rules: BuiltinRules.all)
            return nil
        } catch {
            return error
        }
    }

    @Test("an integer or string grace beyond UInt64 nanoseconds is rejected with its key path",
          arguments: ["99999999999", "9223372036854775807", "\"1e20\"", "\"1e300\""])
    func graceTooLarge(value: String) throws {
        let failure = try #require(error("{\"rules\": {\"leaked_controller\": {\"grace\": \(value)}}}"))
        #expect(failure.keyPath == "rules.leaked_controller.grace")
    }

    @Test("the largest whole number of seconds that fits is accepted")
    func graceThatFits() {
        #expect(error("{\"rules\": {\"leaked_controller\": {\"grace\": 18446744073}}}") == nil)
    }
}
