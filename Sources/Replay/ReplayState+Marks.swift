import TraceModel

extension ReplayState {
    /// Applies a mark at its `begin` or `instant`: resources start and stop, edits and saves.
    ///
    /// The owner is the mark's controller, else the controller whose callback encloses the mark, else the app
    /// (`appResources`, `appUnsaved`). A `save` without a `key` clears every unsaved key of its owner.
    mutating func applyMark(_ event: MarkEvent, _ time: UInt64, _ ordinal: UInt64) {
        applyMark(EventMark(event: event), time, ordinal)
    }

    /// The one fold of a mark, from a `MarkEvent` or a `.mark` record (`MarkSource`).
    mutating func applyMark<M: MarkSource>(_ mark: M, _ time: UInt64, _ ordinal: UInt64) {
        let serial = mark.controllerSerial
        if let serial {
            _ = touch(serial, slot: mark.controllerSlot, mark.refs, time, ordinal, what: "mark \(mark.nameText)")
        }
        guard mark.phase != .end, let name = mark.knownName else { return }
        switch name {
        case .timerStart, .timerStop, .observerAdd, .observerRemove, .taskStart, .taskCancel, .requestStart, .requestCancel, .edit, .save:
            break
        default:
            // No effect on the state: the enclosing callback is not looked for.
            return
        }
        let enclosing = enclosingCallback(ofSerial: serial)
        let owner = serial ?? enclosing?.controllerSerial
        switch name {
        case .timerStart: startResource(.timer, mark.value(of: .id), owner, time, ordinal, enclosing)
        case .timerStop: stopResource(.timer, mark.value(of: .id), owner)
        case .observerAdd: startResource(.observer, mark.value(of: .name) ?? mark.value(of: .id), owner, time, ordinal, enclosing)
        case .observerRemove: stopResource(.observer, mark.value(of: .name) ?? mark.value(of: .id), owner)
        case .taskStart: startResource(.task, mark.value(of: .id), owner, time, ordinal, enclosing)
        case .taskCancel: stopResource(.task, mark.value(of: .id), owner)
        case .requestStart: startResource(.request, mark.value(of: .id), owner, time, ordinal, enclosing)
        case .requestCancel: stopResource(.request, mark.value(of: .id), owner)
        case .edit:
            let key = mark.value(of: .key)?.stringValue ?? ""
            func record(_ edits: inout [UnsavedEdit]) {
                if let index = edits.firstIndex(where: { $0.key == key }) {
                    edits[index].lastEdit = time
                    edits[index].lastOrdinal = ordinal
                    edits[index].count &+= 1
                } else {
                    edits.append(UnsavedEdit(key: key, firstEdit: time, firstOrdinal: ordinal, lastEdit: time, lastOrdinal: ordinal, count: 1))
                }
            }
            if let owner, let position = controllers.position(of: owner) {
                record(&controllers[at: position].unsaved)
            } else {
                record(&appUnsaved)
            }
        case .save:
            let key = mark.value(of: .key)?.stringValue
            func clear(_ edits: inout [UnsavedEdit]) {
                if let key { edits.removeAll { $0.key == key } } else { edits.removeAll() }
            }
            if let owner, let position = controllers.position(of: owner) {
                clear(&controllers[at: position].unsaved)
            } else {
                clear(&appUnsaved)
            }
        default:
            break
        }
    }

    private mutating func startResource(_ kind: LiveResource.Kind, _ id: FieldValue?, _ owner: UInt32?, _ time: UInt64, _ ordinal: UInt64, _ enclosing: ActiveCallback?) {
        let resource = LiveResource(kind: kind, id: id?.description ?? "", since: time, ordinal: ordinal, startedIn: enclosing)
        if let owner, let position = controllers.position(of: owner) {
            controllers[at: position].resources.append(resource)
        } else {
            appResources.append(resource)
        }
    }

    /// Stops the oldest live resource of `kind` and `id` of the owner (then of the app).
    private mutating func stopResource(_ kind: LiveResource.Kind, _ id: FieldValue?, _ owner: UInt32?) {
        let id = id?.description ?? ""
        if let owner, let position = controllers.position(of: owner), Self.removeOldest(kind, id, from: &controllers[at: position].resources) {
            return
        }
        _ = Self.removeOldest(kind, id, from: &appResources)
    }

    /// Removes the first resource of `kind` and `id` from `resources`; `false` when there is none. The elements
    /// are compared where they are stored (`firstIndex(where:)` copied each one it looked at: a retain and a
    /// release of its id), and the last one is removed without shifting.
    @inline(__always)
    private static func removeOldest(_ kind: LiveResource.Kind, _ id: String, from resources: inout [LiveResource]) -> Bool {
        let count = resources.count
        var index = 0
        while index < count {
            if resources[index].kind == kind, resources[index].id == id {
                if index == count - 1 { resources.removeLast() } else { resources.remove(at: index) }
                return true
            }
            index += 1
        }
        return false
    }
}
