/// A recording thread's direct-mapped cache of interned string ids, keyed by the string's two-word
/// representation rather than by its contents: a hit costs a multiply and two compares, no hashing.
///
/// Correctness: equal representations mean equal strings, because the cache keeps a strong reference to every
/// string it keys (so a heap string's storage cannot be freed and its address reused for other contents while
/// its entry exists), and a small string's representation is its contents. Different representations of equal
/// strings simply miss and fall back to the hashed lookup. Producer thread only; 64 entries.
final class InternCache {
    private struct Entry {
        var word0: UInt64
        var word1: UInt64
        var id: UInt32
    }

    private static let size = 64
    private let entries: UnsafeMutablePointer<Entry>
    private let keepAlive: UnsafeMutablePointer<String?>

    init() {
        entries = .allocate(capacity: Self.size)
        entries.initialize(repeating: Entry(word0: 0, word1: 0, id: 0), count: Self.size)
        keepAlive = .allocate(capacity: Self.size)
        keepAlive.initialize(repeating: nil, count: Self.size)
    }

    deinit {
        entries.deallocate()
        keepAlive.deinitialize(count: Self.size)
        keepAlive.deallocate()
    }

    @inline(__always)
    private static func words(_ string: String) -> (UInt64, UInt64) {
        unsafeBitCast(string, to: (UInt64, UInt64).self)
    }

    @inline(__always)
    private static func slot(_ words: (UInt64, UInt64)) -> Int {
        let mixed = (words.0 ^ (words.1 &* 0x9E37_79B9_7F4A_7C15)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 58)
    }

    @inline(__always)
    func id(for string: String) -> UInt32? {
        let key = Self.words(string)
        let entry = entries[Self.slot(key)]
        return entry.id != 0 && entry.word0 == key.0 && entry.word1 == key.1 ? entry.id : nil
    }

    func store(_ string: String, id: UInt32) {
        let key = Self.words(string)
        let slot = Self.slot(key)
        keepAlive[slot] = string
        entries[slot] = Entry(word0: key.0, word1: key.1, id: id)
    }
}
