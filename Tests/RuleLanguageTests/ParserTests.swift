import Testing
@testable import RuleLanguage

@Suite struct ParserTests {
    @Test func aMinimalRuleCompiles() throws {
        let rules = try RuleLanguage.rules(in: """
            rule geometry_early
              never mark geometry.read in viewDidLoad
              example "read in viewDidLoad" fires
                Gallery#1 viewDidLoad begin
                mark geometry.read width=320 @ Gallery#1
                Gallery#1 viewDidLoad end
              example "read later" passes
                Gallery#1 viewDidLoad
                mark geometry.read width=320 @ Gallery#1
            end
            """, file: "t.rule")
        #expect(rules.map(\.id) == ["geometry_early"])
    }
}
