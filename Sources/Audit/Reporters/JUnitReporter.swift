/// JUnit XML: `<testsuites>` with one `<testsuite>` per trace and one `<testcase>` per rule that ran. A test
/// case fails (`<failure>`) when the rule has error-level findings in that trace, or warnings with `--strict`;
/// other findings are listed in the case's `<system-out>`.
public enum JUnitReporter {
    public static func render(_ report: AuditReport) -> String {
        var suites = ""
        var totalTests = 0
        var totalFailures = 0
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
                    cases += "      <failure type=\"\(worst)\" message=\"\(escape("\(failing.count) \(worst)-level finding\(failing.count == 1 ? "" : "s"): \(failing[0].message)"))\">\(escape(lines))\n\(escape("fix: " + rule.fix))</failure>\n"
                } else {
                    cases += "      <system-out>\(escape(lines))</system-out>\n"
                }
                cases += "    </testcase>\n"
            }
            totalTests += report.rules.count
            totalFailures += failures
            suites += "  <testsuite name=\"\(escape(trace.path))\" tests=\"\(report.rules.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
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
                suites += "      <system-err>\(escape(problem.message))</system-err>\n"
            }
            suites += "    </testcase>\n  </testsuite>\n"
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"lifetrace audit\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" errors=\"\(totalErrors)\">\n"
        out += suites
        out += "</testsuites>\n"
        return out
    }

    /// Escapes the five XML special characters and drops characters XML 1.0 does not allow.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
