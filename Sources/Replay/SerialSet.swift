/// A set of controller serials stored as sorted, disjoint, non-adjacent ranges.
///
/// Used for the serials of dead controllers: serials are handed out in creation order and most controllers die
/// in roughly that order, so the dead form few ranges (about one per live controller in between), and the set
/// stays small however many controllers a long trace creates and destroys.
public struct SerialSet: Sendable, Hashable {
    /// The ranges, each packed in one word (lower bound in the high 32 bits, upper bound in the low 32 bits),
    /// ascending, with gaps between them. Packed rather than `[ClosedRange<UInt32>]`: the first array of
    /// `ClosedRange<UInt32>` a process allocates instantiates its type at run time (≈ 260 000 instructions,
    /// a conformance lookup), more than all of a 10^5-event replay's insertions.
    private var bounds: [UInt64] = []

    public init() {}

    /// The ranges, ascending, with gaps between them.
    public var ranges: [ClosedRange<UInt32>] {
        bounds.map { Self.lower($0)...Self.upper($0) }
    }

    /// How many serials the set holds.
    public var count: Int { bounds.reduce(0) { $0 + Int(Self.upper($1) - Self.lower($1)) + 1 } }

    public var isEmpty: Bool { bounds.isEmpty }

    @inline(__always)
    private static func lower(_ packed: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: packed >> 32) }

    @inline(__always)
    private static func upper(_ packed: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: packed) }

    @inline(__always)
    private static func pack(_ lower: UInt32, _ upper: UInt32) -> UInt64 { UInt64(lower) << 32 | UInt64(upper) }

    /// The position of the first range whose upper bound is ≥ `serial`.
    private func position(of serial: UInt32) -> Int {
        var low = 0
        var high = bounds.count
        while low < high {
            let middle = (low + high) / 2
            if Self.upper(bounds[middle]) < serial { low = middle + 1 } else { high = middle }
        }
        return low
    }

    public func contains(_ serial: UInt32) -> Bool {
        let index = position(of: serial)
        return index < bounds.count && Self.lower(bounds[index]) <= serial && serial <= Self.upper(bounds[index])
    }

    public mutating func insert(_ serial: UInt32) {
        // The common case: a serial above every range (controllers mostly die in creation order) joins the last
        // range or starts a new one after it.
        if let last = bounds.last, serial > Self.upper(last) {
            if Self.upper(last) &+ 1 == serial {
                bounds[bounds.count - 1] = Self.pack(Self.lower(last), serial)
            } else {
                bounds.append(Self.pack(serial, serial))
            }
            return
        }
        let index = position(of: serial)
        if index < bounds.count, Self.lower(bounds[index]) <= serial { return }
        let joinsPrevious = index > 0 && Self.upper(bounds[index - 1]) &+ 1 == serial && serial != 0
        let joinsNext = index < bounds.count && Self.lower(bounds[index]) == serial &+ 1 && serial != .max
        switch (joinsPrevious, joinsNext) {
        case (true, true):
            bounds[index - 1] = Self.pack(Self.lower(bounds[index - 1]), Self.upper(bounds[index]))
            bounds.remove(at: index)
        case (true, false):
            bounds[index - 1] = Self.pack(Self.lower(bounds[index - 1]), serial)
        case (false, true):
            bounds[index] = Self.pack(serial, Self.upper(bounds[index]))
        case (false, false):
            bounds.insert(Self.pack(serial, serial), at: index)
        }
    }

    /// Builds a set from ranges, which must be ascending, disjoint and non-adjacent (`nil` otherwise).
    init?(validating ranges: [ClosedRange<UInt32>]) {
        for index in ranges.indices.dropFirst() where ranges[index - 1].upperBound >= ranges[index].lowerBound &- 1 || ranges[index].lowerBound == 0 {
            return nil
        }
        bounds = ranges.map { Self.pack($0.lowerBound, $0.upperBound) }
    }
}
