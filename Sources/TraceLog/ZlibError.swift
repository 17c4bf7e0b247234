/// A zlib call failed. `code` is zlib's return value (`Z_DATA_ERROR` = -3, `Z_MEM_ERROR` = -4, …).
struct ZlibError: Error, Sendable, CustomStringConvertible {
    var code: Int32
    var message: String

    var description: String { "zlib error \(code): \(message)" }
}
