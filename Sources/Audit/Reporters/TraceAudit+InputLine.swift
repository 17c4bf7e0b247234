extension TraceAudit {
    /// Whether the audited input is itself a JSON Lines file whose lines findings can name (`jsonlPath` is the
    /// input's own path, and `jsonlLineMap` says where each event is).
    var readsJSONLInput: Bool { jsonlPath == path && jsonlLineMap != nil }

    /// The 1-based line of the audited input that holds event `ordinal`, for a JSON Lines input (blank lines, CRLF
    /// and a header line counted, `JSONLLineMap`); `nil` for a `.lifetrace` file.
    public func inputLine(of ordinal: UInt64) -> UInt64? {
        guard readsJSONLInput else { return nil }
        return jsonlLineMap?.line(of: ordinal)
    }

    /// Where event `ordinal` is, as the text and JUnit reports write it after the path: `FILE:LINE` for a JSON Lines
    /// input (`":12"`), `FILE:event N` for a `.lifetrace` file (`":event 11"`, the event's 0-based ordinal, as
    /// `lifetrace events` prints it: `#11`).
    func placeSuffix(of ordinal: UInt64) -> String {
        inputLine(of: ordinal).map { ":\($0)" } ?? ":event \(ordinal)"
    }

    /// A related event's place in a detail line: `line 12` for a JSON Lines input, else `event 11`.
    func placeWords(of ordinal: UInt64) -> String {
        inputLine(of: ordinal).map { "line \($0)" } ?? "event \(ordinal)"
    }
}
