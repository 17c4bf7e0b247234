import TraceLog
import TraceModel

/// Where the fold gets a whole `ControllerRef` when it needs one: to start a controller's record on first sight,
/// and for a diagnostic. The hot path works on serials and never asks.
protocol ControllerRefSource {
    /// The controller at `slot` (a record's `controllerSlot` or `parentSlot`).
    func controllerRef(slot: UInt32) -> ControllerRef
}

extension FrameCursor: ControllerRefSource {
    func controllerRef(slot: UInt32) -> ControllerRef { controller(atSlot: slot) }
}

/// A frame cursor the fold reads through a pointer (valid while the fold runs; see `ReplayState.applyRest`).
struct CursorRefs: ControllerRefSource {
    let cursor: UnsafePointer<FrameCursor>

    func controllerRef(slot: UInt32) -> ControllerRef { cursor.controller(atSlot: slot) }
}

/// The controllers of one `CallbackEvent`: slot 0 is the controller, slot 1 the parent argument's controller.
struct CallbackEventRefs: ControllerRefSource {
    let event: CallbackEvent

    func controllerRef(slot: UInt32) -> ControllerRef {
        slot == 1 ? event.parent?.controller ?? event.controller : event.controller
    }
}

/// One controller, at every slot.
struct SingleControllerRef: ControllerRefSource {
    let ref: ControllerRef

    func controllerRef(slot: UInt32) -> ControllerRef { ref }
}
