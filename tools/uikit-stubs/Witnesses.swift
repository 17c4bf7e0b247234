// Type-checked by tools/check-uikit in the LifetraceUIKit module, next to its sources; never compiled into the
import Recorder
import SwiftUI
import TraceModel
import UIKit
// package. Fails the check if the sources' `#if canImport(...)` hid them (the names below would not exist).

@MainActor
func lifetraceUIKitWitnesses(recorder: Recorder, controller: UIViewController) {
    let _: Bool = LifetraceInstrumentation.install(recorder)
    let _: ControllerRef? = LifetraceInstrumentation.ref(for: controller)
    let _: LifetraceHostingController<_StubView> = LifetraceHostingController(rootView: _StubView())
    let _ = _StubView().lifetraceAppearance("Witness")
    Swizzler.instrumentBaseClasses()
}
