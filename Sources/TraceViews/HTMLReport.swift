/// One self-contained HTML page showing one or more traces (`ReportTrace`): a summary table, lanes per
/// controller in container-tree order with appearance spans, nested callbacks, marks, operations and findings;
/// zoom and pan; the findings list (rule, severity, message, fix) that jumps to a finding's time and highlights
/// its related events; filters by controller and rule; and the state panel, which shows the replayer's state at
/// the clicked instant as `lifetrace state --at` prints it (the texts are computed by the replayer and embedded;
/// the page only picks the one at or before the instant).
///
/// No network: the page's CSS, JavaScript (`ReportPage`) and data are all in the file.
public enum HTMLReport {
    /// The page for `traces`, in the order given.
    ///
    /// - Parameter title: The page's title and heading.
    public static func render(_ traces: [ReportTrace], title: String = "Lifetrace report") -> String {
        var data = "["
        for (index, trace) in traces.enumerated() {
            if index > 0 { data += ",\n" }
            data += trace.json
        }
        data += "]"
        // Inside <script type="application/json">: no "<" may open a tag or comment; JSON allows the escape.
        let safe = data.replacingOccurrences(of: "<", with: "\\u003c")
        var page = ReportPage.head(title: escapeHTML(title))
        page += "<script type=\"application/json\" id=\"lifetrace-data\">" + safe + "</script>\n"
        page += "<script>\n" + ReportPage.script + "\n</script>\n</body>\n</html>\n"
        return page
    }

    static func escapeHTML(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
