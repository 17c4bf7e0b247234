import Testing
@testable import RuleLanguage

/// A bad rule file is an error at FILE:LINE:COLUMN saying what was expected, with a suggestion for a misspelt
/// callback, mark or field; a rule that can never fire is an error too.
@Suite("Rule file errors")
struct RuleFileErrorTests {
    /// A rule around `pattern` with examples that compile.
    static func rule(_ statements: String) -> String {
        """
        rule my_rule
        \(statements)
          example "one" fires
            A#1 viewDidLoad
          example "none" passes
            A#1 viewWillAppear
        end
        """
    }

    func error(_ text: String) -> String {
        do {
            _ = try RuleLanguage.rules(in: text, file: "team.rule")
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func misspeltCallbackIsNamedWithItsPlaceAndASuggestion() {
        #expect(error(Self.rule("  never viewDidDisapear")) == "team.rule:2:9: unknown event 'viewDidDisapear' (did you mean 'viewDidDisappear'?): expected a callback (viewDidAppear, …), 'mark NAME', an app event (didEnterBackground, …), a container operation (push, present, …), onAppear/onDisappear, cancellation, removed or exit")
    }

    @Test func misspeltEnclosingCallback() {
        #expect(error(Self.rule("  never mark save in viewWilDisappear")).hasPrefix("team.rule:2:22: unknown callback 'viewWilDisappear' (did you mean 'viewWillDisappear'?)"))
    }

    @Test func misspeltMarkAndField() {
        #expect(error(Self.rule("  never mark sav")).hasPrefix("team.rule:2:14: unknown mark 'sav' (did you mean 'save'?)"))
        #expect(error(Self.rule("  never mark save(critcal: true)")) == "team.rule:2:19: mark 'save' has no field 'critcal' (did you mean 'critical'?)")
        // A mark of the team's own, far from every standard name, is fine.
        #expect(error(Self.rule("  never mark player.start")).contains("example") || error(Self.rule("  never mark player.start")) == "no error")
    }

    @Test func whatWasExpected() {
        #expect(error(Self.rule("  viewDidLoad leads viewDidAppear")) == "team.rule:2:21: expected 'to' after 'leads', found 'viewDidAppear'")
        #expect(error(Self.rule("  severity eror\n  never viewDidLoad")) == "team.rule:2:12: expected a severity (note, warning or error) (did you mean 'error'?), found 'eror'")
        #expect(error(Self.rule("  never viewDidLoad\n  message \"{controler} at {time}\"")) .hasPrefix("team.rule:3:12: unknown placeholder '{controler}' (did you mean 'controller'?)"))
        #expect(error("rule my_rule\n  never viewDidLoad\n") == "team.rule:3:1: expected 'end' to close rule 'my_rule' (begun at line 1)")
        #expect(error("rule MyRule\nend") == "team.rule:1:6: rule id 'MyRule' is not snake_case: expected lower-case letters, digits and '_', starting with a letter")
        #expect(error(Self.rule("  never viewDidLoad\n  never viewDidAppear")) == "team.rule:3:3: a rule has one pattern; this is a second one (start another 'rule ID' for it)")
        #expect(error(Self.rule("  never mark save(key: \"a)")) == "team.rule:2:24: unterminated string: expected a closing '\"' on the same line")
    }

    @Test func examplesAreCheckedToo() {
        let text = """
            rule my_rule
              never viewDidLoad
              example "one" fires
                A#1 viewDidLod
              example "none" passes
                A#1 viewWillAppear
            end
            """
        #expect(error(text) == "team.rule:4:9: unknown callback 'viewDidLod' (did you mean 'viewDidLoad'?)")
        let onlyOne = "rule my_rule\n  never viewDidLoad\n  example \"one\" fires\n    A#1 viewDidLoad\nend\n"
        #expect(error(onlyOne) == "team.rule:1:1: rule 'my_rule' needs at least one example that fires and one that passes (example \"title\" fires / example \"title\" passes, each followed by its events)")
    }

    @Test func rulesThatCanNeverFireAreErrors() {
        #expect(error(Self.rule("  never viewDidLayoutSubviews where duration > 8ms")).hasPrefix("team.rule:2:37: a callback's begin has no duration yet"))
        #expect(error(Self.rule("  never mark save(key: \"a\", key: \"b\")")) == "team.rule:2:29: field 'key' must be both a and b: this term can never match")
        #expect(error(Self.rule("  mark request.start leads to mark request.cancel(id: $id)")).hasPrefix("team.rule:2:51: $id is not bound by the pattern's first term"))
        #expect(error(Self.rule("  eventually viewDidAppear")).hasPrefix("team.rule:1:1: 'eventually' globally per controller can never fire"))
        #expect(error(Self.rule("  never app didEnterBackground in viewDidLoad")).hasPrefix("team.rule:2:9: app events do not run inside controller callbacks"))
        #expect(error(Self.rule("  never viewDidLoad with parent")).hasPrefix("team.rule:2:9: 'with parent' applies to willMove/didMove(toParent:) only"))
        #expect(error(Self.rule("  never mark save in didEnterBackground of the same controller")).hasPrefix("team.rule:2:9: an app delegate callback belongs to no controller"))
        #expect(error(Self.rule("  severity error, warning if followed by cancellation\n  never viewDidLoad")).hasPrefix("team.rule:2:12: 'warning if followed by …' has no effect"))
        #expect(error(Self.rule("  never viewDidLoad\n  once per callback")).hasPrefix("team.rule:2:9: 'once per callback' groups findings by the callback"))
    }

    @Test func idsMustBeUnique() {
        #expect(error(Self.rule("  never viewDidLoad").replacingOccurrences(of: "my_rule", with: "leaked_controller")) == "team.rule:1:1: rule id 'leaked_controller' is already a built-in rule's; choose another id")
        let twice = Self.rule("  never viewDidLoad") + "\n" + Self.rule("  never viewDidAppear")
        #expect(error(twice) == "team.rule:8:1: rule id 'my_rule' is already another rule's; choose another id")
    }
}
