/// Which controller classes the adapter instruments (replaces the implementations of their own lifecycle
/// overrides), by class name.
///
/// UIViewController itself is always instrumented, so a controller of an excluded class is still recorded
/// whenever its overrides call `super` (the interval then encloses only the `super` call, not the override's
/// own code). Excluding a class changes how much of its code the intervals enclose, never whether it is seen.
///
/// The default excludes UIKit's, SwiftUI's and Foundation's classes, public and private (`UI…`, `_UI…`, `NS…`,
/// `_…`, SwiftUI's mangled `_TtC7SwiftUI…`), whose overrides are not the app's code: the in-app rule Sentry's
/// Cocoa SDK applies (it swizzles only the app's own images, and `swizzleClassNameExcludes` skips "any class
/// whose name contains" a configured string: docs.sentry.io/platforms/apple/configuration/swizzling/).
public struct ClassFilter: Sendable, Hashable {
    /// A class whose name starts with one of these is not instrumented.
    public var excludedPrefixes: [String]
    /// A class whose name contains one of these is not instrumented (Sentry's `swizzleClassNameExcludes`).
    public var excludedNameFragments: [String]

    /// UIKit's, SwiftUI's and Foundation's prefixes.
    public static let defaultExcludedPrefixes = ["UI", "_UI", "NS", "_", "SwiftUI.", "_TtC7SwiftUI"]

    public init(excludedPrefixes: [String] = ClassFilter.defaultExcludedPrefixes, excludedNameFragments: [String] = []) {
        self.excludedPrefixes = excludedPrefixes
        self.excludedNameFragments = excludedNameFragments
    }

    /// `true` if the class named `className` (as `String(describing:)` spells it) is instrumented.
    public func instruments(className: String) -> Bool {
        for prefix in excludedPrefixes where className.hasPrefix(prefix) { return false }
        for fragment in excludedNameFragments where !fragment.isEmpty && className.contains(fragment) { return false }
        return true
    }
}
