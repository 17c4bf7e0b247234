import Foundation
import Testing
@testable import Audit

/// A .lifetrace.json must be strict JSON (RFC 8259), and a syntax error names the file, line and column
/// (`FILE:LINE:COLUMN: …`, as compilers and the scenario language do). Foundation's decoder on Linux accepts a
/// trailing comma and a repeated key; the configuration does not.
@Suite("Configuration: strict JSON, and where a syntax error is")
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
        #expect(failure == ".lifetrace.json:2:42: not valid JSON (RFC 8259): unexpected character ','", "\(failure)")
    }

    @Test("a trailing comma in an object or an array is refused (Foundation accepts both)", arguments: [
        ("{\"disabled_rules\": [],}", 1, 23, "expected a member name in quotes"),
        ("{\n  \"rules\": {\n    \"leaked_controller\": {\"grace\": \"5s\",}\n  }\n}\n", 3, 41, "expected a member name in quotes"),
        ("{\"disabled_rules\": [\"leaked_controller\",]}", 1, 41, "unexpected character ']'"),
    ])
    func trailingComma(text: String, line: Int, column: Int, what: String) throws {
        // The toolchain's own decoders accept it: the reason for the strict check.
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil)
        let failure = try #require(message(text))
        #expect(failure == ".lifetrace.json:\(line):\(column): not valid JSON (RFC 8259): \(what)", "\(failure)")
    }

    @Test("a truncated or empty file says the JSON ends too early, at its last line and column", arguments: [
        ("{\"rules\": {", 1, 12), ("", 1, 1), ("{\n  \"rules\": {}\n", 3, 1),
    ])
    func truncated(text: String, line: Int, column: Int) throws {
        let failure = try #require(message(text))
        #expect(failure.hasPrefix(".lifetrace.json:\(line):\(column): not valid JSON (RFC 8259): unexpected end of the file"), "\(failure)")
    }

    @Test("comments, single quotes, leading zeros and text after the object are refused with their place", arguments: [
        ("{\"rules\": {} // none\n}", 1, 14),
        ("{'rules': {}}", 1, 2),
        ("{\"rules\": {\"leaked_controller\": {\"grace\": 05}}}", 1, 44),
        ("{}\n{}", 2, 1),
    ])
    func otherSyntax(text: String, line: Int, column: Int) throws {
        let failure = try #require(message(text))
        #expect(failure.hasPrefix(".lifetrace.json:\(line):\(column): not valid JSON (RFC 8259): "), "\(failure)")
    }

    @Test("columns count characters, not bytes, and a byte order mark is allowed")
    func columnsAndBOM() throws {
        let accented = try #require(message("{\"disabled_rules\": [\"é\",]}"))
        #expect(accented.hasPrefix(".lifetrace.json:1:25: "), "\(accented)")
        #expect(message("\u{FEFF}{\"disabled_rules\": []}") == nil)
        let afterBOM = try #require(message("\u{FEFF}{\"disabled_rules\": [],}"))
        #expect(afterBOM.hasPrefix(".lifetrace.json:1:23: "), "\(afterBOM)")
    }

    @Test("a key given twice is refused at FILE:LINE:COLUMN of its second occurrence, naming the first (Foundation keeps one silently)")
    func repeatedKey() throws {
        let text = "{\"rules\": {\"leaked_controller\": {\"grace\": \"5s\", \"grace\": \"30s\"}}}"
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil)
        let failure = try #require(message(text))
        #expect(
            failure == ".lifetrace.json:1:49: rules.leaked_controller: key 'grace' appears twice (first at line 1, column 34); give each key once",
            "\(failure)")
        let top = try #require(message("{\"disabled_rules\": [], \"disabled_rules\": []}"))
        #expect(top == ".lifetrace.json:1:24: key 'disabled_rules' appears twice (first at line 1, column 2); give each key once", "\(top)")
    }

    @Test("a repeated key's place counts lines, characters after a BOM, escapes and objects inside arrays")
    func repeatedKeyPlaces() throws {
        let multiline = """
            {
              "rules": {
                "leaked_controller": {
                  "grace": "5s",
                  "severity": "warning",
                  "gr\\u0061ce": "30s"
                }
              }
            }
            """
        let failure = try #require(message(multiline))
        #expect(failure.hasPrefix(".lifetrace.json:6:7: rules.leaked_controller: key 'grace' appears twice (first at line 4, column 7)"), "\(failure)")
        #expect(message(multiline.replacingOccurrences(of: "\n", with: "\r\n"))?.hasPrefix(".lifetrace.json:6:7: ") == true)
        // The BOM is not a column; "é" is one column (two bytes).
        let bom = try #require(message("\u{FEFF}{\"é\": 1,\n \"é\": 2}"))
        #expect(bom.hasPrefix(".lifetrace.json:2:2: key 'é' appears twice (first at line 1, column 2)"), "\(bom)")
        // The same name in two different objects is no repeat; inside an array's object it is.
        let nested = try #require(message("{\"disabled_rules\": [{\"a\": 1, \"b\": 2}, {\"a\": 1,\n\"a\": 2}]}"))
        #expect(nested.hasPrefix(".lifetrace.json:2:1: disabled_rules[1]: key 'a' appears twice (first at line 1, column 40)"), "\(nested)")
    }

    @Test("strict JSON that is a valid configuration still loads")
    func validStillLoads() throws {
        let text = """
            {
              "disabled_rules": ["view_did_load_once"],
              "rules": {"leaked_controller": {"severity": "warning", "grace": "10s"}}
            }

            """
        #expect(message(text) == nil)
        #expect(message(text.replacingOccurrences(of: "\n", with: "\r\n")) == nil)
    }

    @Test("a configuration path that is a directory or missing says why it cannot be read")
    func unreadableFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func failure(_ url: URL) -> String? {
            do {
                _ = try AuditConfiguration.load(contentsOf: url, displayPath: url.lastPathComponent, rules: BuiltinRules.all)
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(failure(directory) == "\(directory.lastPathComponent): is a directory, not a configuration file")
        let missing = directory.appendingPathComponent("missing.json")
        #expect(failure(missing) == "missing.json: cannot read the file: No such file or directory (errno 2)")
    }

    @Test("an unknown key, an unknown rule and a bad value also name the line and column of their key", arguments: [
        ("{\n  \"rules\": {\n    \"leaked_controller\": {\"grase\": \"5s\"}\n  }\n}\n",
         ".lifetrace.json:3:27: rules.leaked_controller: unknown key 'grase'"),
        ("{\n  \"rules\": {\n    \"leaked_controler\": {}\n  }\n}\n", ".lifetrace.json:3:5: rules: unknown rule 'leaked_controler'"),
        ("{\"disabled_rules\": [\n  \"view_did_load_once\",\n  \"nope\"\n]}", ".lifetrace.json:3:3: disabled_rules: unknown rule 'nope'"),
        ("{\n\t\"rules\": {\"leaked_controller\": {\"grace\": \"soon\"}}}", ".lifetrace.json:2:34: rules.leaked_controller.grace: 'soon' is not a duration"),
        ("{\"inconclusive_severity\": \"fatal\"}", ".lifetrace.json:1:2: inconclusive_severity: expected"),
        ("{\n  \"disabled\": []\n}", ".lifetrace.json:2:3: unknown key 'disabled'"),
        ("{\"rules\": {\"leaked_controller\": {\"grace\": 1e400}}}", ".lifetrace.json:1:34: not valid JSON (a number out of range"),
    ])
    func semanticErrorsAreLocated(text: String, expected: String) throws {
        let failure = try #require(message(text))
        #expect(failure.hasPrefix(expected), "\(failure)")
    }
}
