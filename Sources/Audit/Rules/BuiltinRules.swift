/// The rules Lifetrace ships, in the order they are listed and documented.
public enum BuiltinRules {
    public static let all: [Rule] = [
        CriticalSavePlacementRule.rule,
        UnsavedEditAtExitRule.rule,
        AppearanceBalanceRule.rule,
        ViewDidLoadOnceRule.rule,
        LeakedControllerRule.rule,
        OrphanChildRule.rule,
        ViewLoadedInInitRule.rule,
        GeometryBeforeAppearingRule.rule,
        TeardownInWillDisappearRule.rule,
        WorkBeforeVisibleRule.rule,
        HostingChildrenAccumulateRule.rule,
        ExpensiveLayoutRule.rule,
        TimerUnderSheetRule.rule,
        AnalyticsOvercountRule.rule,
        ObserverNotRemovedRule.rule,
        RequestNotCancelledRule.rule,
    ]

    /// The rule with `id`, or `nil`.
    public static func rule(_ id: String) -> Rule? {
        all.first { $0.id == id }
    }
}
