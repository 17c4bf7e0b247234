/// Narrows some of a monitor's callbacks to some controllers: the callbacks in `callbacks` (of the monitor's
/// `RuleMonitor.callbackFilter`) reach it only for the controllers whose serials are in the set (`.members`), or
/// only for those whose serials are not (`.nonMembers`). The monitor owns the object and changes the set as it
/// goes; the engine reads it per callback entry, from the entry's serial, before building the record, so a
/// callback the filter holds back costs one lookup instead of a dispatch.
///
/// Callbacks the monitor's `callbackDemand` asks for reach it whatever the set says. Memory follows the serials
/// the monitor keeps in the set (it shrinks as they go), so keep it to live controllers (remove a serial at its
/// deinit). Not thread-safe: one monitor, one session, one thread.
public final class SerialFilter {
    /// Which controllers the filtered callbacks reach.
    public enum Mode: Sendable {
        /// Only controllers in the set.
        case members
        /// Only controllers not in the set.
        case nonMembers
    }

    /// The callbacks (and phases) filtered; the others of `callbackFilter` reach the monitor for every controller.
    public let callbacks: CallbackSet
    public let mode: Mode
    /// The set: open-addressed (linear probing, Fibonacci hash) over `capacity` slots (a power of two), a slot
    /// holding a serial or 0 for empty; serial 0 itself is `holdsZero`. Manually allocated: a lookup is a multiply,
    /// a load and a compare, with no reference counting or bounds checks (the engine asks per callback entry).
    @exclusivity(unchecked) private var slots: UnsafeMutablePointer<UInt32>
    @exclusivity(unchecked) private var capacity: Int
    /// `64 - log2(capacity)`.
    @exclusivity(unchecked) private var shift: UInt64
    @exclusivity(unchecked) private var stored = 0
    @exclusivity(unchecked) private var holdsZero = false

    public init(_ callbacks: CallbackSet, _ mode: Mode) {
        self.callbacks = callbacks
        self.mode = mode
        capacity = 16
        shift = 60
        slots = .allocate(capacity: 16)
        slots.initialize(repeating: 0, count: 16)
    }

    deinit {
        slots.deallocate()
    }

    /// How many serials are in the set.
    public var count: Int { stored + (holdsZero ? 1 : 0) }

    @inline(__always)
    private func home(of serial: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(serial) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Whether `serial` is in the set.
    @inline(__always)
    public func contains(_ serial: UInt32) -> Bool {
        if serial == 0 { return holdsZero }
        let mask = capacity &- 1
        var slot = home(of: serial)
        while true {
            let held = slots[slot]
            if held == serial { return true }
            if held == 0 { return false }
            slot = (slot &+ 1) & mask
        }
    }

    /// Adds `serial` to the set (nothing if it is there).
    public func insert(_ serial: UInt32) {
        if serial == 0 {
            holdsZero = true
            return
        }
        // One probe run: the serial, or the free slot it goes to.
        let mask = capacity &- 1
        var slot = home(of: serial)
        while true {
            let held = slots[slot]
            if held == serial { return }
            if held == 0 { break }
            slot = (slot &+ 1) & mask
        }
        if (stored + 1) * 2 > capacity {
            resize(to: capacity * 2)
            place(serial)
        } else {
            slots[slot] = serial
        }
        stored += 1
    }

    /// Removes `serial` from the set (nothing if it is not there).
    public func remove(_ serial: UInt32) {
        if serial == 0 {
            holdsZero = false
            return
        }
        let mask = capacity &- 1
        var hole = home(of: serial)
        while slots[hole] != serial {
            if slots[hole] == 0 { return }
            hole = (hole &+ 1) & mask
        }
        // Backward-shift deletion: later serials of the probe run move up into the hole (no tombstones).
        var next = (hole &+ 1) & mask
        while slots[next] != 0 {
            let wanted = home(of: slots[next])
            // Move the serial at `next` into the hole unless its home lies cyclically in (hole, next].
            if (next > hole && (wanted <= hole || wanted > next)) || (next < hole && (wanted <= hole && wanted > next)) {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next &+ 1) & mask
        }
        slots[hole] = 0
        stored -= 1
        // Shrink when a quarter full at most (memory follows the serials held, not the most ever held).
        if capacity > 16, stored * 8 <= capacity { resize(to: capacity / 2) }
    }

    /// Puts `serial` (not in the set, not 0) in its first free slot from home.
    @inline(__always)
    private func place(_ serial: UInt32) {
        let mask = capacity &- 1
        var slot = home(of: serial)
        while slots[slot] != 0 { slot = (slot &+ 1) & mask }
        slots[slot] = serial
    }

    private func resize(to newCapacity: Int) {
        let old = slots
        let oldCapacity = capacity
        capacity = newCapacity
        shift = UInt64(64 - newCapacity.trailingZeroBitCount)
        slots = .allocate(capacity: newCapacity)
        slots.initialize(repeating: 0, count: newCapacity)
        for index in 0..<oldCapacity where old[index] != 0 { place(old[index]) }
        old.deallocate()
    }

    /// Whether a filtered callback of the controller `serial` reaches the monitor.
    @inline(__always)
    func passes(_ serial: UInt32) -> Bool {
        contains(serial) == (mode == .members)
    }
}
