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


    /// Copies the strings with ids `from...` into `cache` (the writer thread's local copy).
    func copy(from start: Int, into cache: inout [String]) {
        state.withLock { state in
            if start < state.strings.count {
                cache.append(contentsOf: state.strings[start...])
            }
        }
    }
}

/// A payload too large or too irregular for a 32-byte record (custom marks, containers of more than two
/// controllers, notes): the record carries a retained pointer to it, which the background thread takes back.
/// Slow path: one allocation, no lock.
final class BoxedPayload {
    let payload: EventPayload

    init(_ payload: EventPayload) {
        self.payload = payload
    }

    /// A +1 reference as a record word.
    static func retainedWord(_ payload: EventPayload) -> UInt64 {
        UInt64(UInt(bitPattern: Unmanaged.passRetained(BoxedPayload(payload)).toOpaque()))
    }

    /// Takes back the reference `retainedWord` made.
    static func take(_ word: UInt64) -> EventPayload? {
        guard let raw = UnsafeRawPointer(bitPattern: UInt(word)) else { return nil }
        return Unmanaged<BoxedPayload>.fromOpaque(raw).takeRetainedValue().payload
    }
}
