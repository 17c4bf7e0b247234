/// A growable buffer of plain values (no references) at a stable address between growths: the decoder's mark
/// fields and container lists, appended to through a pointer (no uniqueness or capacity check per element).
///
/// A reference type, shared by copies of the decoder that owns it: the owner copies it before appending when
/// it is not uniquely referenced (`EventDecoder.uniqueLists()`, `uniqueFields()`), so copies of a decoder keep value semantics.
final class TableBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    /// How many elements are valid (`base[0 ..< count]`).
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = Swift.max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// A copy with the same elements.
    func copy() -> TableBuffer {
        let copy = TableBuffer(capacity: capacity)
        copy.base.initialize(from: base, count: count)
        copy.count = count
        return copy
    }

    /// Makes room for `extra` more elements after `count` (`base` may move).
    @inline(__always)
    func reserve(extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    @inline(never)
    private func grow(to needed: Int) {
        let newCapacity = Swift.max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Counts the `added` elements initialised after `count` (room made by `reserve(extra:)`).
    @inline(__always)
    func commit(_ added: Int) {
        count += added
    }

    func append(_ element: Element) {
        reserve(extra: 1)
        (base + count).initialize(to: element)
        count += 1
    }

    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "table index out of range")
        return base[index]
    }

    /// The elements `start ..< start + length`.
    func elements(from start: Int, count length: Int) -> UnsafeBufferPointer<Element> {
        precondition(start >= 0 && length >= 0 && start + length <= count, "table range out of range")
        return UnsafeBufferPointer(start: base + start, count: length)
    }

    /// Every element, as an array.
    var array: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
