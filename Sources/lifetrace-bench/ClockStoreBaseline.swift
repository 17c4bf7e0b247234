// The record hot path's baseline: what recording one event can at best cost on the calling thread.

/// Reads the monotonic clock and stores 32 bytes (timestamp, kind, two payload words) into the next slot of a
/// preallocated ring buffer: the floor any in-process recorder pays per event.
final class ClockStoreBaseline {
    private static let slotCount = 1 << 16
    private let buffer: UnsafeMutableRawPointer
    private var index = 0

    init() {
        buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.slotCount * 32, alignment: 64)
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: Self.slotCount * 32)
    }

    deinit { buffer.deallocate() }

    /// Records `count` events; returns a value that depends on every store.
    @inline(never)
    func record(count: Int) -> UInt64 {
        var folded: UInt64 = 0
        var slot = index
        for ordinal in 0..<count {
            let timestamp = monotonicNanoseconds()
            let address = buffer + slot &* 32
            address.storeBytes(of: timestamp, as: UInt64.self)
            address.storeBytes(of: UInt64(truncatingIfNeeded: ordinal) | 0x0300_0000_0000_0000, toByteOffset: 8, as: UInt64.self)
            address.storeBytes(of: UInt64(truncatingIfNeeded: slot), toByteOffset: 16, as: UInt64.self)
            address.storeBytes(of: folded, toByteOffset: 24, as: UInt64.self)
            folded &+= timestamp
            slot = (slot &+ 1) & (Self.slotCount - 1)
        }
        index = slot
        return folded
    }
}
