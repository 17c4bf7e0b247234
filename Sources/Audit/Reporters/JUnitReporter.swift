/// JUnit XML: `<testsuites>` with one `<testsuite>` per trace and one `<testcase>` per rule that ran. A test
/// case fails (`<failure>`) when the rule has error-level findings in that trace, or warnings with `--strict`;
/// other findings are listed in the case's `<system-out>`. A rule the configuration leaves off is a test case with
/// `<skipped>`, counted in the suite's `skipped`.
///
/// `time` (seconds, three decimals): on `<testsuite>` the wall-clock time of that trace's audit
/// (`TraceAudit.seconds`), on `<testsuites>` their sum. Test cases have none: every rule runs in the same single
/// pass over the trace, so a rule's own share is not measured. Checked against the Jenkins xUnit plugin's
/// `junit-10.xsd` (Tests/Fixtures/schemas) with `xmlschema` and read back with `junitparser`.
public enum JUnitReporter {
    public static func render(_ report: AuditReport) -> String {
        var suites = ""
        var totalTests = 0
        var totalFailures = 0
        var totalSeconds = 0.0
        for trace in report.traces {
            var cases = ""
            var failures = 0
            for rule in report.rules {
                let findings = trace.findings.filter { $0.ruleID == rule.id }
                let failing = findings.filter { $0.severity == .error || (report.isStrict && $0.severity == .warning) }
                cases += "    <testcase classname=\"\(escape(trace.path))\" name=\"\(escape(rule.id))\""
                if findings.isEmpty {
                    cases += "/>\n"
                    continue
                }
                cases += ">\n"
                let lines = findings.map { finding in
                    "\(trace.path)\(trace.placeSuffix(of: finding.ordinal)): \(finding.severity)\(finding.verdict == .inconclusive ? " (inconclusive)" : ""): \(finding.message) at \(trace.time(finding.timestamp))\(finding.controller.map { " in \($0)" } ?? "")"
                }.joined(separator: "\n")
                if !failing.isEmpty {
                    failures += 1
                    let worst = failing.map(\.severity).max() ?? .error
                    cases += "      <failure type=\"\(worst)\" message=\"\(escape("\(failing.count) \(worst)-level finding\(failing.count == 1 ? "" : "s"): \(failing[0].message)"))\">\(escape(lines, inAttribute: false))\n\(escape("fix: " + rule.fix, inAttribute: false))</failure>\n"
                } else {
                    cases += "      <system-out>\(escape(lines, inAttribute: false))</system-out>\n"
                }
                cases += "    </testcase>\n"
            }
            for rule in report.disabledRules {
                cases += "    <testcase classname=\"\(escape(trace.path))\" name=\"\(escape(rule.id))\">\n"
                cases += "      <skipped message=\"not enabled by the configuration (disabled_rules, or an opt-in rule not in opt_in_rules)\"/>\n"
                cases += "    </testcase>\n"
            }
            let tests = report.rules.count + report.disabledRules.count
            totalTests += tests
            totalFailures += failures
            var time = ""
            if let seconds = trace.seconds {
                totalSeconds += seconds
                time = " time=\"\(Self.seconds(seconds))\""
            }
            suites += "  <testsuite name=\"\(escape(trace.path))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(report.disabledRules.count)\"\(time)>\n"
            suites += cases
            suites += "  </testsuite>\n"
        }
        // An input that could not be read (or only up to its damage) is a test case of its own, `read`, in a
        // suite named after the input: an `<error>` when events could not be read, `<system-err>` for damage.
        var totalErrors = 0
        for problem in report.inputProblems {
            let isError = problem.severity == .error
            totalTests += 1
            totalErrors += isError ? 1 : 0
            suites += "  <testsuite name=\"\(escape(problem.path)) (input)\" tests=\"1\" failures=\"0\" errors=\"\(isError ? 1 : 0)\" skipped=\"0\">\n"
            suites += "    <testcase classname=\"\(escape(problem.path))\" name=\"read\">\n"
            if isError {
                suites += "      <error type=\"unreadable input\" message=\"\(escape(problem.message))\"/>\n"
            } else {
                suites += "      <system-err>\(escape(problem.message, inAttribute: false))</system-err>\n"
            }
            suites += "    </testcase>\n  </testsuite>\n"
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let measured = report.traces.contains { $0.seconds != nil }
        out += "<testsuites name=\"lifetrace audit\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" errors=\"\(totalErrors)\""
        out += (measured ? " time=\"\(Self.seconds(totalSeconds))\"" : "") + ">\n"
        out += suites
        out += "</testsuites>\n"
        return out
    }

    /// `seconds` with three decimals (`0.042`), as JUnit's `time` is written.
    static func seconds(_ seconds: Double) -> String {
        let milliseconds = Int((max(0, seconds) * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// `text` as XML 1.0 character data or attribute value (the same escaping serves both), so that a parser
    /// reads back exactly `text` wherever XML 1.0 can hold it:
    /// - the five special characters as entities;
    /// - tab, line feed and carriage return as character references (`&#9;`, `&#10;`, `&#13;`): raw, a parser
    ///   turns them into spaces in an attribute (attribute-value normalisation) and a carriage return into a
    ///   line feed anywhere (end-of-line handling); line feeds in element content stay raw, for people reading
    ///   the file;
    /// - DEL and the C1 controls (allowed, but discouraged by XML 1.0 §2.2) as character references;
    /// - the characters XML 1.0 cannot hold at all, even as references (the other C0 controls, U+FFFE, U+FFFF),
    ///   written out as text (`\u{1B}`), as the text report shows them, instead of being dropped: the report
    ///   stays well-formed and still shows that they were there.
    static func escape(_ text: String, inAttribute: Bool = true) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: out += "&amp;"
            case 0x3C: out += "&lt;"
            case 0x3E: out += "&gt;"
            case 0x22: out += "&quot;"
            case 0x27: out += "&apos;"
            case 0x0A where !inAttribute: out.unicodeScalars.append(scalar)
            case 0x09, 0x0A, 0x0D, 0x7F...0x9F: out += "&#\(scalar.value);"
            case 0..<0x20, 0xFFFE, 0xFFFF:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u{\(hex.count < 2 ? "0" + hex : hex)}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
