// Type-checked in CI against declaration-only UIKit/SwiftUI/ObjectiveC stubs (tools/check-uikit); never run there.
#if canImport(UIKit) && canImport(SwiftUI)
import Recorder
import SwiftUI
import TraceModel
import UIKit

/// A `UIHostingController` that tells the SwiftUI views it hosts which controller hosts them, so
/// `lifetraceAppearance(_:)` records `onAppear`/`onDisappear` with the host. Its own UIKit lifecycle is
/// recorded like any controller's by the swizzled UIViewController methods.
///
/// Source: docs/LIFECYCLE.md — SwiftUI's onAppear/onDisappear follow the view's membership in the render tree, not
/// its visibility (a sheet over the host gives neither); recording them next to the host's viewDidAppear
/// lets the audit compare the two.
open class LifetraceHostingController<Content: View>: UIHostingController<LifetraceHostedRoot<Content>> {
    private let host: LifetraceHostBox

    public init(rootView: Content) {
        let host = LifetraceHostBox()
        self.host = host
        super.init(rootView: LifetraceHostedRoot(content: rootView, host: host))
        host.ref = LifetraceInstrumentation.ref(for: self)
    }

    @available(*, unavailable)
    public required dynamic init?(coder: NSCoder) {
        fatalError("init(coder:) is not supported; use init(rootView:)")
    }
}

/// Holds the hosting controller's reference for the views it hosts (set right after the controller's init).
public final class LifetraceHostBox: @unchecked Sendable {
    // @unchecked: written once on the main thread during the host's init, read on the main thread after.
    public var ref: ControllerRef?
    public init() {}
}

/// The root view of a `LifetraceHostingController`: the app's view with the host in its environment.
public struct LifetraceHostedRoot<Content: View>: View {
    let content: Content
    let host: LifetraceHostBox

    public var body: some View {
        content.environment(\.lifetraceHost, host)
    }
}

/// The environment key of `EnvironmentValues.lifetraceHost` (Apple: "EnvironmentKey"; written out rather than
/// with the `@Entry` macro, whose compiler plug-in only Apple's toolchains have, so tools/check-uikit can
/// type-check this file on Linux).
struct LifetraceHostKey: EnvironmentKey {
    static let defaultValue: LifetraceHostBox? = nil
}

extension EnvironmentValues {
    /// The hosting controller of the current SwiftUI view, when hosted by a `LifetraceHostingController`.
    public var lifetraceHost: LifetraceHostBox? {
        get { self[LifetraceHostKey.self] }
        set { self[LifetraceHostKey.self] = newValue }
    }
}

/// Records the modified view's `onAppear` and `onDisappear` actions under `name`.
struct LifetraceAppearanceModifier: ViewModifier {
    let name: String
    @Environment(\.lifetraceHost) private var host

    func body(content: Content) -> some View {
        content
            .onAppear { LifetraceInstrumentation.recorder?.onAppear(view: name, host: host?.ref) }
            .onDisappear { LifetraceInstrumentation.recorder?.onDisappear(view: name, host: host?.ref) }
    }
}

extension View {
    /// Records this view's SwiftUI `onAppear` / `onDisappear` as Lifetrace events named `name` (e.g. the view's
    /// type name), with the hosting controller when it is a `LifetraceHostingController`.
    public func lifetraceAppearance(_ name: String) -> some View {
        modifier(LifetraceAppearanceModifier(name: name))
    }
}
#endif
