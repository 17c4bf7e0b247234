import Foundation
import Testing
@testable import Audit

/// A .lifetrace.json with a JSON syntax error names where the error is, not just that there is one.
@Suite("Configuration: where a syntax error is")
struct ConfigurationSyntaxErrorTests {
    func message(_ text: String) -> String? {
        do {
            _ = try AuditConfiguration(json: Data(text.utf8), origin: ".lifetrace.json", rules: BuiltinRules.all)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("a stray comma names its line and column")
    func strayComma() throws {
        let text = "{\n  \"disabled_rules\": [\"leaked_controller\",,]\n}\n"
        let failure = try #require(message(text))
        #expect(failure.contains(".lifetrace.json"))
        #expect(failure.contains("line 2, column"), "\(failure)")
    }

    @Test("a truncated or empty file says the JSON ends too early", arguments: ["{\"rules\": {", ""])
    func truncated(text: String) throws {
        let failure = try #require(message(text))
        #expect(failure.contains("at the end of the file"), "\(failure)")
    }
}
