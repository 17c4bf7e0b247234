import Foundation
import Testing
@testable import Audit

/// A configuration file is small: one past 1 MiB is refused before it is parsed, and one up to the limit is
/// checked in linear time. (A two-million-element array took 16.7 s and 250 MB to be refused.)
@Suite("Configuration: size limit and linear checks")
struct ConfigurationSizeTests {
    static func elements(_ count: Int) -> String {
        "{\"disabled_rules\": [" + Array(repeating: "0", count: count).joined(separator: ",") + "]}"
    }

    @Test("a two-million-element array (4 MB) is refused as larger than 1 MiB, from a file read no further")
    func twoMillionElements() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent(".lifetrace.json")
        try Data(Self.elements(2_000_000).utf8).write(to: url)
        do throws(ConfigurationError) {
            _ = try AuditConfiguration.load(contentsOf: url, displayPath: ".lifetrace.json", rules: BuiltinRules.all)
            Issue.record("a 4 MB configuration was accepted")
        } catch {
            #expect(error.description.contains(".lifetrace.json"), "\(error)")
            #expect(error.message.contains("larger than 1 MiB"), "\(error)")
        }
    }

    @Test("a quarter of a million elements (0.5 MB, under the limit): the wrong element type is reported within 90 s (debug, loaded machine; quadratic would take hours)")
    func quarterMillionElements() throws {
        let text = Self.elements(250_000)
        #expect(text.utf8.count <= AuditConfiguration.maximumFileSize)
        let clock = ContinuousClock()
        var failure: ConfigurationError?
        let elapsed = clock.measure {
            do throws(ConfigurationError) {
                _ = try AuditConfiguration(json: Data(text.utf8), origin: ".lifetrace.json", rules: BuiltinRules.all)
            } catch {
                failure = error
            }
        }
        #expect(failure?.keyPath.hasPrefix("disabled_rules") == true, "\(String(describing: failure))")
        #expect(elapsed < .seconds(90), "took \(elapsed)")
    }
}
