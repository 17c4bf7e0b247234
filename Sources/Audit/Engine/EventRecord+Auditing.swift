import TraceLog
import TraceModel

extension EventRecord {
    /// The record of a container, app, SwiftUI or mark event fed to an `AuditSession` as an `Event`, so monitors
    /// see the same record as from a frame: the kind, `code`, `phase`, serials, `listCount` and the container's
    /// style and index. Slots have no meaning here: `EventContext` reads strings, controllers and fields from the
    /// event itself. `nil` for the other kinds.
    init?(auditing event: Event, ordinal: UInt64) {
        self.init(otherAt: event.timestamp, ordinal: ordinal)
        switch event.payload {
        case .container(let container):
            kind = .container
            code = container.operation.rawValue
            phase = container.phase
            animated = container.animated
            if let ref = container.container {
                hasController = true
                controller = ref.serial
            }
            listCount = UInt32(container.controllers.count)
            style = container.style?.rawValue ?? Self.noStyle
            if let index = container.index {
                hasIndex = true
                self.index = Int64(index)
            }
        case .app(let app):
            kind = .app
            code = app.transition.rawValue
            phase = app.phase
        case .swiftUI(let swiftUI):
            kind = .swiftUI
            code = swiftUI.action.rawValue
            phase = .instant
            if let host = swiftUI.host {
                hasController = true
                controller = host.serial
            }
        case .mark(let mark):
            kind = .mark
            code = KnownName(mark.name).rawValue
            phase = mark.phase
            if let ref = mark.controller {
                hasController = true
                controller = ref.serial
            }
            listCount = UInt32(mark.fields.count)
        case .callback, .recorder, .unknown:
            return nil
        }
    }
}
