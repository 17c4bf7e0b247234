import TraceModel
import Synchronization

/// Interns the strings events carry (mark keys, scene ids, SwiftUI view names) so the ring holds only ids.
///
/// Looking up a string already interned hashes it under a lock and allocates nothing; the first use of a
/// string stores it (one allocation). Id 0 means "no string". Ids are never reused within a recorder.
final class StringTable: Sendable {
    private struct State {
        var ids: [String: UInt32] = [:]
        var strings: [String] = [""]
    }

    private let state = Mutex(State())

    func id(for string: String) -> UInt32 {
        state.withLock { state in
            if let id = state.ids[string] { return id }
            let id = UInt32(state.strings.count)
            state.strings.append(string)
            state.ids[string] = id
            return id
        }
    }

    func id(for string: String?) -> UInt32 {
        guard let string else { return 0 }
        return id(for: string)
    }

    /// Copies the strings with ids `from...` into `cache` (the writer thread's local copy).
    func copy(from start: Int, into cache: inout [String]) {
        state.withLock { state in
            if start < state.strings.count {
                cache.append(contentsOf: state.strings[start...])
            }
        }
    }
}

/// Payloads too large or too irregular for a 32-byte record (custom marks, containers of more than two
/// controllers, notes): they wait here under a ticket that the ring's record carries. Slow path: allocates.
final class BoxTable: Sendable {
    private struct State {
        var next: UInt64 = 1
        var items: [UInt64: EventPayload] = [:]
    }

    private let state = Mutex(State())

    func put(_ payload: EventPayload) -> UInt64 {
        state.withLock { state in
            let ticket = state.next
            state.next += 1
            state.items[ticket] = payload
            return ticket
        }
    }

    func take(_ ticket: UInt64) -> EventPayload? {
        state.withLock { $0.items.removeValue(forKey: ticket) }
    }
}
