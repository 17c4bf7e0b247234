/// A set of controller serials stored as sorted, disjoint, non-adjacent ranges.
///
/// Used for the serials of dead controllers: serials are handed out in creation order and most controllers die
/// in roughly that order, so the dead form few ranges (about one per live controller in between), and the set
/// stays small however many controllers a long trace creates and destroys.
public struct SerialSet: Sendable, Hashable {
    /// The ranges, ascending, with gaps between them.
    public private(set) var ranges: [ClosedRange<UInt32>] = []

    public init() {}

    /// How many serials the set holds.
    public var count: Int { ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound) + 1 } }

    public var isEmpty: Bool { ranges.isEmpty }

    /// The position of the first range whose upper bound is ≥ `serial`.
    private func position(of serial: UInt32) -> Int {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < serial { low = middle + 1 } else { high = middle }
        }
        return low
    }

    public func contains(_ serial: UInt32) -> Bool {
        let index = position(of: serial)
        return index < ranges.count && ranges[index].contains(serial)
    }

    public mutating func insert(_ serial: UInt32) {
        // The common case: a serial above every range (controllers mostly die in creation order) joins the last
        // range or starts a new one after it.
        if let last = ranges.last, serial > last.upperBound {
            if last.upperBound &+ 1 == serial {
                ranges[ranges.count - 1] = last.lowerBound...serial
            } else {
                ranges.append(serial...serial)
            }
            return
        }
        let index = position(of: serial)
        if index < ranges.count, ranges[index].contains(serial) { return }
        let joinsPrevious = index > 0 && ranges[index - 1].upperBound &+ 1 == serial && serial != 0
        let joinsNext = index < ranges.count && ranges[index].lowerBound == serial &+ 1 && serial != .max
        switch (joinsPrevious, joinsNext) {
        case (true, true):
            ranges[index - 1] = ranges[index - 1].lowerBound...ranges[index].upperBound
            ranges.remove(at: index)
        case (true, false):
            ranges[index - 1] = ranges[index - 1].lowerBound...serial
        case (false, true):
            ranges[index] = serial...ranges[index].upperBound
        case (false, false):
            Self.insert(serial...serial, at: index, into: &ranges)
        }
    }

    /// `ranges.insert(range, at: index)` with the tail moved by one `memmove`: the generic insertion moved the
    /// tail one element at a time (≈ 13 000 instructions for an insertion into a few thousand ranges).
    private static func insert(_ range: ClosedRange<UInt32>, at index: Int, into ranges: inout [ClosedRange<UInt32>]) {
        let count = ranges.count
        ranges.append(range)
        guard index < count else { return }
        ranges.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            (base + index + 1).update(from: base + index, count: count - index)
            base[index] = range
        }
    }

    /// Builds a set from ranges, which must be ascending, disjoint and non-adjacent (`nil` otherwise).
    init?(validating ranges: [ClosedRange<UInt32>]) {
        for index in ranges.indices.dropFirst() where ranges[index - 1].upperBound >= ranges[index].lowerBound &- 1 || ranges[index].lowerBound == 0 {
            return nil
        }
        self.ranges = ranges
    }
}
