import Testing

@testable import LifetraceCLI

/// An unknown option gets a did-you-mean on every command, as an unknown command does (before, only commands did:
/// `lifetrace events T --controler X` said "unknown option" and nothing more).
@Suite("unknown options: did you mean, on every command")
struct NearMissOptionTests {
    @Test("every long option of every command, with one letter dropped, is suggested back; exit 2 with the usage line")
    func everyOption() {
        for command in Lifetrace.commands {
            for option in command.spec.options where option.name.count > 3 {
                var typo = option.name
                typo.remove(at: typo.index(typo.startIndex, offsetBy: typo.count / 2))
                let result = runCLI([command.spec.name, "--\(typo)"])
                #expect(result.code == .usageOrInput)
                #expect(result.out.isEmpty)
                let lines = result.err.split(separator: "\n")
                // Another option may be as near (--from/--format); the suggestion must be one at most two edits away.
                let expected = "lifetrace \(command.spec.name): error: unknown option '--\(typo)' for '\(command.spec.name)' (did you mean '--"
                #expect(lines.first?.hasPrefix(expected) == true, "\(result.err)")
                if let first = lines.first, let range = first.range(of: "(did you mean '--") {
                    let suggested = String(first[range.upperBound...].prefix { $0 != "'" })
                    #expect(command.spec.options.contains { $0.name == suggested }, "\(first)")
                }
                #expect(lines.last?.hasPrefix("usage: lifetrace \(command.spec.name) ") == true)
            }
        }
    }

    @Test("an option of other commands says which ones take it")
    func otherCommandsOption() {
        let strict = runCLI(["events", "x.lifetrace", "--strict"])
        #expect(strict.code == .usageOrInput)
        #expect(strict.err.hasPrefix("lifetrace events: error: unknown option '--strict' for 'events' (an option of 'import' and 'audit')\n"), "\(strict.err)")
        let repair = runCLI(["timeline", "x.lifetrace", "--repair=yes"])
        #expect(repair.err.hasPrefix("lifetrace timeline: error: unknown option '--repair=yes' for 'timeline' (an option of 'verify')\n"), "\(repair.err)")
        let nowhere = runCLI(["state", "x.lifetrace", "--verbose"])
        #expect(nowhere.err.hasPrefix("lifetrace state: error: unknown option '--verbose' for 'state'\n"), "\(nowhere.err)")
    }

    @Test("the brief's example, and top-level options")
    func examples() {
        let result = runCLI(["events", "x.lifetrace", "--controler", "X"])
        #expect(result.err.hasPrefix("lifetrace events: error: unknown option '--controler' for 'events' (did you mean '--controller'?)\n"))
        #expect(runCLI(["--verison"]).err == "lifetrace: error: unknown option '--verison' (did you mean '--version'?)\n" + Lifetrace.overview)
        #expect(runCLI(["-version"]).err == "lifetrace: error: unknown option '-version' (did you mean '--version'?)\n" + Lifetrace.overview)
        #expect(runCLI(["-V"]).out == "lifetrace \(Lifetrace.version)\n")
        #expect(runCLI(["--adit"]).err == "lifetrace: error: unknown option '--adit' (did you mean 'audit'?)\n" + Lifetrace.overview)
        #expect(runCLI(["state", "x", "--format", "jsno"]).err.hasPrefix("lifetrace state: error: --format must be one of text, json; got 'jsno' (did you mean 'json'?)\n"))
    }
}
