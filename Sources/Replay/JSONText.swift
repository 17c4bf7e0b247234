import TraceModel

/// Minimal JSON text building for the state's machine-readable form (no Foundation needed).
enum JSONText {
    /// `text` as a JSON string literal, with quotes.
    static func string(_ text: String) -> String {
        JSONString.quoted(text)
    }

    static func optional(_ text: String?) -> String { text.map(string) ?? "null" }
    static func number<T: BinaryInteger>(_ value: T?) -> String { value.map { String($0) } ?? "null" }
    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    /// An object from ordered key/value pairs (values already JSON text).
    static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
