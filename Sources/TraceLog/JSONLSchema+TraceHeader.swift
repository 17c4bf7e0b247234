import TraceModel

extension JSONLSchema {
    /// The producer a header without a `producer` member gets.
    public static let defaultProducer = "lifetrace-import"

    /// The members of the header line's `lifetrace` object (docs/JSONL.md, "Header").
    public enum HeaderKey {
        public static let format = "format"
        public static let version = "version"
        public static let clockDomain = "clock_domain"
        public static let anchor = "wall_clock_anchor"
        public static let unixNanoseconds = "unix_ns"
        public static let monotonicNanoseconds = "monotonic_ns"
        public static let traceID = "trace_id"
        public static let producer = "producer"
        public static let syntheticTimes = "synthetic_times"
    }

    /// The header line's `lifetrace` object for `header` (docs/JSONL.md, "Header").
    static func headerValue(for header: TraceHeader) -> JSONLValue {
        typealias Key = HeaderKey
        return .object([
            (Key.format, .string(formatName)),
            (Key.version, .number(String(version))),
            (Key.clockDomain, .string(header.clockDomain.name)),
            (Key.anchor, .object([
                (Key.unixNanoseconds, .number(String(header.wallClockAnchor.unixNanoseconds))),
                (Key.monotonicNanoseconds, .number(String(header.wallClockAnchor.monotonicNanoseconds))),
            ])),
            (Key.traceID, .string(header.traceIDHex)),
            (Key.producer, .string(header.producer)),
            (Key.syntheticTimes, .bool(header.hasSyntheticTimes)),
        ])
    }

    /// The `TraceHeader` a header line's `lifetrace` object describes; absent members take defaults (unknown
    /// clock, no anchor, a fresh trace id, `defaultProducer`, real times).
    ///
    /// - Throws: `JSONLError` `.badHeader` naming the member, at `line` of `file`.
    static func traceHeader(from value: JSONLValue, file: String, line: Int) throws(JSONLError) -> TraceHeader {
        typealias Key = HeaderKey
        let decoder = LineDecoder(object: value, file: file, line: line, prefix: "lifetrace.")
        func bad(_ error: JSONLError) -> JSONLError {
            JSONLError(.badHeader, "header: \(error.message)", file: file, line: line)
        }
        func decode() throws(JSONLError) -> TraceHeader {
            var clockDomain = ClockDomain.unknown
            if let name = try decoder.optionalString(Key.clockDomain) {
                guard let domain = ClockDomain(name: name) else {
                    throw decoder.bad(Key.clockDomain, "is not a known clock domain: \"\(name)\"")
                }
                clockDomain = domain
            }
            var anchor = WallClockAnchor.none
            if let anchorValue = value[Key.anchor], anchorValue != .null {
                guard case .object = anchorValue else { throw decoder.bad(Key.anchor, "must be an object") }
                let inner = LineDecoder(object: anchorValue, file: file, line: line, prefix: "lifetrace.\(Key.anchor).")
                anchor = WallClockAnchor(
                    unixNanoseconds: try inner.optionalInt64(Key.unixNanoseconds) ?? 0,
                    monotonicNanoseconds: try inner.optionalUInt64(Key.monotonicNanoseconds) ?? 0
                )
            }
            var traceID = TraceHeader.randomTraceID()
            if let hex = try decoder.optionalString(Key.traceID) {
                guard let bytes = Self.bytes(fromHex: hex), bytes.count == 16 else {
                    throw decoder.bad(Key.traceID, "must be 32 hex digits")
                }
                traceID = bytes
            }
            return TraceHeader(
                clockDomain: clockDomain,
                wallClockAnchor: anchor,
                producer: try decoder.optionalString(Key.producer) ?? defaultProducer,
                hasSyntheticTimes: try decoder.optionalBool(Key.syntheticTimes) ?? false,
                traceID: traceID
            )
        }
        do {
            return try decode()
        } catch {
            throw bad(error)
        }
    }

    private static func bytes(fromHex hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension JSONLWriter {
    /// Writes the header line `{"lifetrace": {…}}` carrying `header` (clock domain, wall-clock anchor, trace id,
    /// producer, synthetic flag). Allowed only before the first event.
    ///
    /// - Throws: `JSONLError` `.misplacedHeader` if something was written already; the sink's errors.
    public mutating func writeHeader(_ header: TraceHeader) throws {
        try writeHeader(JSONLSchema.headerValue(for: header))
    }
}
