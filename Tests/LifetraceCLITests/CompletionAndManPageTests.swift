import Foundation
import Testing

@testable import LifetraceCLI

/// `lifetrace completions bash|zsh|fish` and `lifetrace help --man`, written from the commands' help data: the
/// shells accept the scripts, bash completes what the parser takes, and groff/man render the page without a warning.
@Suite("shell completions and the man page")
struct CompletionAndManPageTests {
    /// Runs `tool arguments…` with `input` on standard input; exit status and both outputs.
    static func shell(_ tool: String, _ arguments: [String], input: String = "") throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C.UTF-8"
        environment["MANWIDTH"] = "100"
        process.environment = environment
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    static func script(_ shell: String) throws -> String {
        let result = runCLI(["completions", shell])
        try #require(result.code == .success, "\(result.err)")
        #expect(result.err.isEmpty)
        return result.out
    }

    @Test("bash -n accepts the bash script, and it completes commands, options, choices, rule ids and help topics")
    func bash() throws {
        let scratch = try CLIScratch("completion-bash")
        let path = scratch.path("lifetrace.bash")
        try Self.script("bash").write(toFile: path, atomically: true, encoding: .utf8)
        let syntax = try Self.shell("/bin/bash", ["-n", path])
        #expect(syntax.status == 0, "\(syntax.err)")
        let driver = """
            source '\(path)'
            complete -p lifetrace
            comp() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _lifetrace; echo "${COMPREPLY[*]}"; }
            comp lifetrace aud
            comp lifetrace events trace.lifetrace --contr
            comp lifetrace audit --format ''
            comp lifetrace verify --color a
            comp lifetrace rules critical_save
            comp lifetrace help tim
            comp lifetrace completions ''
            comp lifetrace timeline t --fo
            """
        let result = try Self.shell("/bin/bash", ["--norc", "--noprofile"], input: driver)
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count >= 9, "\(result.out)")
        guard lines.count >= 9 else { return }
        #expect(lines[0].hasPrefix("complete -o bashdefault -o filenames -F _lifetrace lifetrace"), "\(lines[0])")
        #expect(lines[1] == "audit")
        #expect(lines[2] == "--controller")
        #expect(lines[3] == "text json ndjson sarif junit github markdown")
        #expect(lines[4] == "auto always")
        #expect(lines[5] == "critical_save_placement")
        #expect(lines[6] == "timeline")
        #expect(lines[7] == "bash zsh fish")
        #expect(lines[8] == "--format", "timeline takes --format now")
    }

    @Test("every command and every long option is in every script")
    func complete() throws {
        for shell in ShellCompletionScript.Shell.allCases {
            let text = try Self.script(shell.rawValue)
            for command in Lifetrace.commands {
                #expect(text.contains(command.spec.name), "\(shell): \(command.spec.name)")
                for option in command.spec.options {
                    let spelled = shell == .fish ? "-l \(option.name)" : "--\(option.name)"
                    #expect(text.contains(spelled), "\(shell): \(command.spec.name) --\(option.name)")
                }
            }
            for hidden in Lifetrace.hiddenCommands {
                #expect(!text.contains(" \(hidden.spec.name)"), "\(shell): hidden \(hidden.spec.name)")
            }
        }
        let unknown = runCLI(["completions", "bsh"])
        #expect(unknown.code == .usageOrInput)
        #expect(unknown.err.hasPrefix("lifetrace completions: error: unknown shell 'bsh' (did you mean 'bash'?); give one of bash, zsh, fish\n"), "\(unknown.err)")
    }

    @Test("zsh -n and fish -n accept their scripts (tools/install-deps installs both)", arguments: ["zsh", "fish"])
    func otherShells(shell: String) throws {
        let tool = "/usr/bin/\(shell)"
        try #require(FileManager.default.isExecutableFile(atPath: tool), "\(shell) is missing: run tools/install-deps")
        let scratch = try CLIScratch("completion-\(shell)")
        let path = scratch.path("lifetrace.\(shell)")
        try Self.script(shell).write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Self.shell(tool, ["-n", path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.isEmpty, "\(result.err)")
    }

    @Test("fish loads the script and completes a command's options with their descriptions")
    func fishCompletes() throws {
        let tool = "/usr/bin/fish"
        try #require(FileManager.default.isExecutableFile(atPath: tool), "fish is missing: run tools/install-deps")
        let scratch = try CLIScratch("completion-fish-run")
        let path = scratch.path("lifetrace.fish")
        try Self.script("fish").write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Self.shell(tool, ["--no-config", "-c", "source '\(path)'; complete -C 'lifetrace verify --col'; complete -C 'lifetrace audit --format '"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("--color\tColour on standard output"), "\(result.out)")
        #expect(result.out.contains("sarif"), "\(result.out)")
    }

    @Test("help --man renders with groff and man -l without a warning, with every command and option")
    func manPage() throws {
        let page = runCLI(["help", "--man"])
        #expect(page.code == .success)
        #expect(page.out.hasPrefix(".TH LIFETRACE 1 "))
        #expect(page.out.unicodeScalars.allSatisfy { $0.isASCII }, "non-ASCII written as \\[uXXXX]")
        let scratch = try CLIScratch("man")
        let path = scratch.path("lifetrace.1")
        try page.out.write(toFile: path, atomically: true, encoding: .utf8)
        let groff = "/usr/bin/groff"
        try #require(FileManager.default.isExecutableFile(atPath: groff), "groff is missing: run tools/install-deps")
        let rendered = try Self.shell(groff, ["-man", "-Tutf8", "-ww", path])
        #expect(rendered.status == 0)
        #expect(rendered.err.isEmpty, "\(rendered.err)")
        let text = rendered.out.replacingOccurrences(of: ".\u{08}", with: "", options: .regularExpression)
        for command in Lifetrace.commands {
            #expect(text.contains("lifetrace \(command.spec.name)"), "\(command.spec.name)")
            for option in command.spec.options {
                #expect(text.contains("--\(option.name)") || text.contains("‐‐\(option.name)") || text.contains("−−\(option.name)"), "\(command.spec.name) --\(option.name)")
            }
        }
        #expect(text.contains("EXIT STATUS"))
        #expect(text.contains("NO_COLOR"))
        let man = "/usr/bin/man"
        try #require(FileManager.default.isExecutableFile(atPath: man), "man is missing: run tools/install-deps")
        let viewed = try Self.shell(man, ["-l", path])
        #expect(viewed.status == 0)
        #expect(viewed.err.isEmpty, "\(viewed.err)")
        #expect(viewed.out.contains("lifetrace audit"))

        let extra = runCLI(["help", "--man", "audit"])
        #expect(extra.code == .usageOrInput)
        #expect(extra.err == "lifetrace: error: 'help --man' takes nothing more; got 'audit'\n")
    }

    @Test("every command's help, the completions command's too, keeps an Examples: section")
    func examples() {
        for command in Lifetrace.commands {
            #expect(command.spec.helpText(program: "lifetrace").contains("\nExamples:\n  lifetrace \(command.spec.name)"), "\(command.spec.name)")
        }
    }
}
