import Testing
@testable import ArgumentParsing

@Suite("ArgumentParsing: parsing and near-miss suggestions")
struct ArgumentParsingTests {
    let spec = CommandSpec(
        name: "events", abstract: "List events.", usage: "TRACE [--controller NAME] [--format F]",
        options: [
            OptionSpec("controller", value: "NAME", repeatable: true, help: "A controller."),
            OptionSpec("format", value: "FORMAT", help: "text or jsonl."),
            OptionSpec("from", value: "T", help: "First time."),
            OptionSpec("strict", help: "A flag."),
            OptionSpec("output", short: "o", value: "FILE", help: "Output."),
        ],
        positionalCount: (1, 1)
    )

    func failure(_ arguments: [String]) -> String? {
        do {
            _ = try spec.parse(arguments)
            return nil
        } catch let error as ValidationError {
            return error.message
        } catch {
            return "\(type(of: error))"
        }
    }

    @Test("edit distance counts insertions, deletions and substitutions of characters")
    func editDistance() {
        #expect(Spelling.editDistance("controler", "controller") == 1)
        #expect(Spelling.editDistance("adit", "audit") == 1)
        #expect(Spelling.editDistance("fromm", "from") == 1)
        #expect(Spelling.editDistance("kitten", "sitting") == 3)
        #expect(Spelling.editDistance("", "abc") == 3)
        #expect(Spelling.editDistance("abc", "abc") == 0)
        #expect(Spelling.editDistance("é", "e") == 1)
    }

    @Test("the nearest known word within two edits is suggested; a known word, or nothing near, gets none")
    func nearest() {
        #expect(Spelling.nearest(to: "jsno", among: ["text", "json"]) == "json")
        #expect(Spelling.nearest(to: "JSON", among: ["text", "json"]) == "json")  // case only
        #expect(Spelling.nearest(to: "json", among: ["text", "json"]) == nil)  // already right
        #expect(Spelling.nearest(to: "yaml", among: ["text", "json"]) == nil)  // too far
        #expect(Spelling.nearest(to: "to", among: ["to", "from"]) == nil)
        #expect(Spelling.suggestion(for: "adit", among: ["audit", "info"]) == " (did you mean 'audit'?)")
        #expect(Spelling.suggestion(for: "xyzzy", among: ["audit", "info"]) == "")
    }

    @Test("an unknown long option names the nearest one, with --name=value and with a single dash too")
    func unknownOption() {
        #expect(failure(["t", "--controler", "A"]) == "unknown option '--controler' for 'events' (did you mean '--controller'?)")
        #expect(failure(["t", "--controler=A"]) == "unknown option '--controler=A' for 'events' (did you mean '--controller'?)")
        #expect(failure(["t", "-controller", "A"]) == "unknown option '-controller' for 'events' (did you mean '--controller'?)")
        #expect(failure(["t", "--fromat", "json"]) == "unknown option '--fromat' for 'events' (did you mean '--format'?)")
        #expect(failure(["t", "--stric"]) == "unknown option '--stric' for 'events' (did you mean '--strict'?)")
        #expect(failure(["t", "--hepl"]) == "unknown option '--hepl' for 'events' (did you mean '--help'?)")
        #expect(failure(["t", "--verbose"]) == "unknown option '--verbose' for 'events'")
        #expect(failure(["t", "-x"]) == "unknown option '-x' for 'events'")
        // Known options still parse; a negative number is still a positional argument.
        #expect(failure(["t", "--controller", "A", "--format=json", "-o", "f"]) == nil)
        #expect(failure(["-1.5"]) == nil)
    }

    @Test("a value outside a choice names the nearest choice")
    func choice() throws {
        var parsed = ParsedArguments()
        parsed.values["format"] = ["jsnol"]
        #expect(throws: ValidationError("--format must be one of text, jsonl; got 'jsnol' (did you mean 'jsonl'?)")) {
            try parsed.choice("format", among: ["text", "jsonl"], default: "text")
        }
        parsed.values["format"] = ["xml"]
        #expect(throws: ValidationError("--format must be one of text, jsonl; got 'xml'")) {
            try parsed.choice("format", among: ["text", "jsonl"], default: "text")
        }
        parsed.values["format"] = ["jsonl"]
        #expect(try parsed.choice("format", among: ["text", "jsonl"], default: "text") == "jsonl")
    }
}

@Suite("ArgumentParsing: help text")
struct HelpTextTests {
    @Test("a repeatable option says so in --help; the others do not")
    func repeatable() {
        let spec = CommandSpec(
            name: "events", abstract: "List events.", usage: "TRACE",
            options: [
                OptionSpec("kind", value: "K", repeatable: true, help: "A kind."),
                OptionSpec("format", value: "FORMAT", help: "text or jsonl."),
            ])
        let help = spec.helpText(program: "lifetrace")
        #expect(help.contains("--kind K         A kind. Repeatable.\n"), "\(help)")
        #expect(help.contains("--format FORMAT  text or jsonl.\n"), "\(help)")
        #expect(help.hasPrefix("OVERVIEW: List events.\n\nUSAGE: lifetrace events TRACE\n"))
    }
}
