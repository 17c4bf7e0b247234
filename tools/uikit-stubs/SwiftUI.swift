// Declaration-only stand-in for the parts of Apple's SwiftUI that Sources/LifetraceUIKit uses, so
// tools/check-uikit can type-check LifetraceUIKit on Linux (see ObjectiveC.swift for how the stubs are built).
// NOT a package target: nothing here is linked or shipped; bodies only satisfy the compiler.
//
// Each declaration has the Swift signature (labels, types, generic constraints, isolation) shown on the Apple
// documentation page named next to it, under https://developer.apple.com/documentation/swiftui/. SwiftUI's
// macros (`@Entry`, `@Observable`...) need Apple's compiler plug-ins, which Linux does not have: LifetraceUIKit
// does not use them.

@_exported import UIKit

/// view — `@MainActor @preconcurrency protocol View` (`associatedtype Body : View`;
/// `@ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }`).
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// never — `Never` conforms to `View` (the `Body` of primitive views).
extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("stub") }
}

/// viewbuilder — `@resultBuilder struct ViewBuilder`.
@resultBuilder public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
}

/// viewmodifier — `@MainActor @preconcurrency protocol ViewModifier` (`associatedtype Body : View`;
/// `typealias Content = _ViewModifier_Content<Self>`;
/// `@ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body`).
@MainActor @preconcurrency public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

/// viewmodifier/content — `struct _ViewModifier_Content<Modifier> where Modifier : ViewModifier` (a `View`).
public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
    public typealias Body = Never
    public var body: Never { fatalError("stub") }
}

/// modifiedcontent — `@frozen struct ModifiedContent<Content, Modifier>`; a `View` when `Content : View`,
/// `Modifier : ViewModifier`.
@frozen public struct ModifiedContent<Content, Modifier> {
    public var content: Content
    public var modifier: Modifier
}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    public typealias Body = Never
    public var body: Never { fatalError("stub") }
}

/// A concrete view for the stubs' `some View` results (SwiftUI's real result types are private).
public struct _StubView: View {
    nonisolated public init() {}
    public typealias Body = Never
    public var body: Never { fatalError("stub") }
}

extension View {
    /// view/modifier(_:) — `nonisolated func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T>`.
    nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> { fatalError("stub") }

    /// view/onappear(perform:) — `nonisolated func onAppear(perform action: (() -> Void)? = nil) -> some View`.
    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { _StubView() }

    /// view/ondisappear(perform:) — `nonisolated func onDisappear(perform action: (() -> Void)? = nil)
    /// -> some View`.
    nonisolated public func onDisappear(perform action: (() -> Void)? = nil) -> some View { _StubView() }

    /// view/environment(_:_:) — `nonisolated func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues,
    /// V>, _ value: V) -> some View`.
    nonisolated public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
        _StubView()
    }
}

/// environmentkey — `protocol EnvironmentKey` (`associatedtype Value`; `static var defaultValue: Self.Value
/// { get }`).
public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Self.Value { get }
}

/// environmentvalues — `struct EnvironmentValues`; environmentvalues/subscript(_:) —
/// `subscript<K>(key: K.Type) -> K.Value where K : EnvironmentKey { get set }`.
public struct EnvironmentValues {
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
}

/// dynamicproperty — `protocol DynamicProperty`.
public protocol DynamicProperty {}

/// environment — `@frozen @propertyWrapper struct Environment<Value>: DynamicProperty`;
/// environment/init(_:)-... — `init(_ keyPath: KeyPath<EnvironmentValues, Value>)`;
/// environment/wrappedvalue — `var wrappedValue: Value { get }`.
@frozen @propertyWrapper public struct Environment<Value>: DynamicProperty {
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { fatalError("stub") }
    public var wrappedValue: Value { fatalError("stub") }
}

/// uihostingcontroller — `@MainActor @preconcurrency class UIHostingController<Content> : UIViewController
/// where Content : View`.
@MainActor @preconcurrency open class UIHostingController<Content: View>: UIViewController {
    /// uihostingcontroller/init(rootview:) — `@MainActor @preconcurrency init(rootView: Content)`.
    public init(rootView: Content) { fatalError("stub") }

    /// uihostingcontroller/init(coder:rootview:) — `@MainActor @preconcurrency init?(coder aDecoder: NSCoder,
    /// rootView: Content)`.
    public init?(coder aDecoder: NSCoder, rootView: Content) { fatalError("stub") }

    /// uihostingcontroller/init(coder:) — `@MainActor @preconcurrency required dynamic init?(coder aDecoder:
    /// NSCoder)`.
    public required dynamic init?(coder aDecoder: NSCoder) { fatalError("stub") }

    /// uihostingcontroller/rootview — `@MainActor @preconcurrency var rootView: Content { get set }`.
    public var rootView: Content {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }

    /// uihostingcontroller/viewwillappear(_:) — `@MainActor @preconcurrency override dynamic func
    /// viewWillAppear(_ animated: Bool)` (also viewDidAppear(_:), viewWillDisappear(_:), viewDidDisappear(_:)).
    open override dynamic func viewWillAppear(_ animated: Bool) {}
    open override dynamic func viewDidAppear(_ animated: Bool) {}
    open override dynamic func viewWillDisappear(_ animated: Bool) {}
    open override dynamic func viewDidDisappear(_ animated: Bool) {}
}
