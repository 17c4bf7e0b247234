/// A growable list of plain-bytes values used as a stack (pushed and popped at the end, rarely changed in the
/// middle): manually allocated, so a push, a pop or a read of the top is a load or a store, with no copy-on-write
/// check and no bounds check beyond the monitor's own. Not copyable (it owns its buffer); not thread-safe.
struct PlainStack<Element: BitwiseCopyable>: ~Copyable {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 16) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The element at `index` (below `count`).
    @inline(__always)
    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count)
            return storage[index]
        }
        nonmutating set {
            precondition(index >= 0 && index < count)
            storage[index] = newValue
        }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (storage + count).initialize(to: element)
        count &+= 1
    }

    /// Removes and returns the last element (the stack must not be empty).
    @inline(__always)
    mutating func removeLast() -> Element {
        precondition(count > 0)
        count &-= 1
        return storage[count]
    }

    /// Removes and returns the element at `index`, moving the later ones down.
    mutating func remove(at index: Int) -> Element {
        precondition(index >= 0 && index < count)
        let element = storage[index]
        (storage + index).update(from: storage + index + 1, count: count - index - 1)
        count &-= 1
        return element
    }

    /// The index of the last element satisfying `predicate`, or `nil`.
    @inline(__always)
    func lastIndex(where predicate: (Element) -> Bool) -> Int? {
        var index = count &- 1
        while index >= 0 {
            if predicate(storage[index]) { return index }
            index &-= 1
        }
        return nil
    }

    mutating func removeAll() {
        count = 0
    }

    @inline(never)
    private mutating func grow() {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = grown
        capacity *= 2
    }
}
