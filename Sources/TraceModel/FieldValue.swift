/// The value of a mark's field: a string, a signed 64-bit integer, a boolean or a double.
public enum FieldValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case double(Double)

    public var description: String {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        case .double(let value): String(value)
        }
    }

    /// Reads `true`/`false` as booleans, whole numbers as integers, other numbers as doubles, anything else as
    /// a string. Used where values come as text (the importer's `--mark key=value`).
    public init(parsing text: String) {
        if text == "true" {
            self = .bool(true)
        } else if text == "false" {
            self = .bool(false)
        } else if let value = Int64(text) {
            self = .int(value)
        } else if let value = Double(text), value.isFinite {
            self = .double(value)
        } else {
            self = .string(text)
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var intValue: Int64? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The value as a number (integers widen to Double), or `nil` for strings and booleans.
    public var doubleValue: Double? {
        switch self {
        case .double(let value): value
        case .int(let value): Double(value)
        default: nil
        }
    }
}

/// One named field of a mark. Fields keep their order.
public struct MarkField: Sendable, Hashable {
    public var name: String
    public var value: FieldValue

    public init(_ name: String, _ value: FieldValue) {
        self.name = name
        self.value = value
    }
}
