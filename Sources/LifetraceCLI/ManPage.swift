import ArgumentParsing

/// The manual page `lifetrace help --man` prints: lifetrace(1) in roff (the `man` macros), written from the same
/// help data as `--help` (each command's `CommandSpec`: abstract, usage, options, discussion) and the overview.
///
/// `man -l <(lifetrace help --man)` shows it; `lifetrace help --man > lifetrace.1` installs it (in a `man1`
/// directory of `manpath`). Characters outside ASCII are written as groff's `\[uXXXX]`, so no input encoding is
/// assumed.
enum ManPage {
    static func render() -> String {
        let program = Lifetrace.program
        var out: [String] = [
            ".TH \(program.uppercased()) 1 \"\" \"\(program) \(Lifetrace.version)\" \"User Commands\"",
            // Left-aligned and never hyphenated: option names and paths must stay as they are typed.
            ".ad l",
            ".nh",
            ".SH NAME",
            "\(program) \\- record, replay and audit UIViewController lifecycle traces",
            ".SH SYNOPSIS",
            ".B \(program)",
            ".I command",
            "[\\fIoptions\\fR]",
            ".br",
            ".B \(program)",
            "\\-\\-help | \\-h | help [\\fIcommand\\fR]",
            ".br",
            ".B \(program)",
            "\\-\\-version | \\-V",
            ".SH DESCRIPTION",
            text("Lifetrace records, replays and audits UIViewController lifecycle traces. A trace is a .lifetrace file (or a JSON Lines export of one) holding every lifecycle callback, container operation, app and scene event and mark of a session; the commands import console logs into traces, list and export their events, rebuild the state of every controller at any instant, and check the history against lifecycle rules."),
            ".PP",
            text("Results go to standard output; errors, warnings, notes and progress to standard error, each message starting with the command (\(program) audit: error: \u{2026})."),
            ".SH COMMANDS",
        ]
        for command in Lifetrace.commands {
            let spec = command.spec
            out.append(".SS \(quotedArgument("\(program) \(spec.name)"))")
            out.append(text(spec.abstract))
            out.append(".PP")
            out.append(".B \(program) \(spec.name)")
            out.append(text(spec.usage))
            out.append(".PP")
            for option in spec.options + [OptionSpec("help", short: "h", help: "Show this help and exit.")] {
                out.append(".TP")
                var synopsis = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
                synopsis += "\\fB\(escape("--\(option.name)"))\\fR"
                if let value = option.valueName { synopsis += " \\fI\(escape(value))\\fR" }
                out.append(synopsis)
                out.append(text(option.help))
            }
            if !spec.discussion.isEmpty {
                out += discussion(spec.discussion)
            }
        }
        out += [
            ".SH EXIT STATUS",
            ".TP",
            ".B 0",
            text("Success; for audit, no error-level finding."),
            ".TP",
            ".B 1",
            text("A problem was found: error-level findings (warnings too with audit --strict), a damaged trace read up to its damage, a failed verify, events or timeline that selects nothing (as grep)."),
            ".TP",
            ".B 2",
            text("Usage error (missing or unknown command, option or argument), bad configuration, unreadable input (not a trace, a frame or JSON line that does not decode), or standard output that cannot be written."),
            ".SH ENVIRONMENT",
            ".TP",
            ".B NO_COLOR",
            text("When set and not empty, --color auto (the default) does not colour (no-color.org)."),
            ".TP",
            ".B TERM",
            text("When dumb, --color auto does not colour."),
            ".TP",
            ".B GITHUB_STEP_SUMMARY",
            text("When set, audit appends a Markdown job summary to that file."),
            ".SH FILES",
            ".TP",
            ".B .lifetrace.json",
            text("The audit configuration, found from the current directory upwards (or given with --config)."),
            ".SH SEE ALSO",
            text("\(program) help COMMAND; \(program) completions bash|zsh|fish; docs/CLI.md in the Lifetrace repository."),
        ]
        return out.joined(separator: "\n") + "\n"
    }

    /// A discussion (`CommandSpec.discussion`, prose wrapped at about 110 columns, with indented example lines) as
    /// paragraphs: blank lines separate them, indented lines are kept as they are (`.nf`), the rest is filled.
    static func discussion(_ text: String) -> [String] {
        var out: [String] = []
        var paragraph: [String] = []
        var verbatim: [String] = []
        func flush() {
            if !paragraph.isEmpty {
                out.append(".PP")
                out.append(Self.text(paragraph.joined(separator: " ")))
                paragraph = []
            }
            if !verbatim.isEmpty {
                out += [".PP", ".RS 4", ".nf"] + verbatim.map { Self.text($0) } + [".fi", ".RE"]
                verbatim = []
            }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingLeadingSpaces()
            if trimmed.isEmpty {
                flush()
            } else if line.hasPrefix("  ") {
                if !paragraph.isEmpty { flush() }
                verbatim.append(trimmed)
            } else {
                if !verbatim.isEmpty { flush() }
                paragraph.append(trimmed)
            }
        }
        flush()
        return out
    }

    /// A line of running text: escaped, and protected from being read as a request when it starts with `.` or `'`.
    static func text(_ line: String) -> String {
        let escaped = escape(line)
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// `text` with roff's special characters escaped: `\` as `\e`, `-` as `\-` (a minus, as options are typed),
    /// and every character outside ASCII as `\[uXXXX]`.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where scalar.value >= 0x80 || (scalar.value < 0x20 && scalar != "\t"):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `"text"` as one macro argument.
    private static func quotedArgument(_ text: String) -> String {
        "\"" + escape(text).replacingOccurrences(of: "\"", with: "\\(dq") + "\""
    }
}

private extension String {
    func trimmingLeadingSpaces() -> String {
        String(drop(while: { $0 == " " }))
    }
}
