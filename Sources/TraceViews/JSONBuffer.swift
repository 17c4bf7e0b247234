import TraceModel

/// UTF-8 bytes of JSON text being written, handed to a sink in chunks of about 64 KiB so that a long output
/// never sits in memory whole.
struct JSONBuffer {
    private var bytes: [UInt8] = []
    private let sink: ([UInt8]) throws -> Void
    /// Bytes handed to the sink so far, plus those still buffered.
    private(set) var byteCount = 0

    static let chunkSize = 1 << 16

    init(sink: @escaping ([UInt8]) throws -> Void) {
        self.sink = sink
        bytes.reserveCapacity(Self.chunkSize + 4096)
    }

    mutating func append(_ text: String) throws {
        bytes.append(contentsOf: text.utf8)
        byteCount += text.utf8.count
        if bytes.count >= Self.chunkSize { try flush() }
    }

    /// Hands what is buffered to the sink.
    mutating func flush() throws {
        guard !bytes.isEmpty else { return }
        try sink(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}

/// One JSON object written member by member: `{"name":"viewDidLoad","ph":"X",…}`.
struct JSONObjectText {
    private(set) var text = "{"
    private var isEmpty = true

    private mutating func key(_ name: String) {
        if !isEmpty { text += "," }
        isEmpty = false
        JSONString.append(name, to: &text)
        text += ":"
    }

    mutating func string(_ name: String, _ value: String) {
        key(name)
        JSONString.append(value, to: &text)
    }

    /// A member whose value is JSON text already (a number, `true`, an object).
    mutating func raw(_ name: String, _ json: String) {
        key(name)
        text += json
    }

    mutating func int<I: BinaryInteger>(_ name: String, _ value: I) {
        raw(name, String(value))
    }

    mutating func bool(_ name: String, _ value: Bool) {
        raw(name, value ? "true" : "false")
    }

    mutating func field(_ name: String, _ value: FieldValue) {
        switch value {
        case .string(let text): string(name, text)
        case .int(let number): int(name, number)
        case .bool(let flag): bool(name, flag)
        case .double(let number): number.isFinite ? raw(name, String(number)) : string(name, String(number))
        }
    }

    var closed: String { text + "}" }
}
