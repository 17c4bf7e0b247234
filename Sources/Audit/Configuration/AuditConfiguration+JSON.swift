import Foundation
import TraceLog
import TraceModel

extension AuditConfiguration {
    /// The file name looked up from the current directory upwards.
    public static let fileName = ".lifetrace.json"

    /// The top-level keys a configuration file may have.
    static let topLevelKeys = ["disabled_rules", "opt_in_rules", "inconclusive_severity", "rules"]

    /// Reads a configuration file:
    ///
    /// ```json
    /// {
    ///   "disabled_rules": ["view_did_load_once"],
    ///   "opt_in_rules": [],
    ///   "inconclusive_severity": "note",
    ///   "rules": {
    ///     "leaked_controller": { "severity": "warning", "grace": "10s" },
    ///     "geometry_before_appearing": { "enabled": false }
    ///   }
    /// }
    /// ```
    ///
    /// Durations are strings with a unit (`"5s"`, `"1500ms"`) or numbers of seconds; name lists are arrays of
    /// strings (`["timer.start", "playback.start"]`, replacing the default list); severities are `error`,
    /// `warning` or `note`.
    ///
    /// The file must be strict JSON (RFC 8259): no trailing comma, no comment, no key given twice in one object
    /// (Foundation's decoder would accept the first and keep one of the second silently; see `StrictJSON`).
    ///
    /// - Parameters:
    ///   - data: The file's bytes (UTF-8 JSON).
    ///   - origin: The file's path, used in error messages.
    ///   - rules: The rules the file may name (normally `BuiltinRules.all`).
    /// - Throws: `ConfigurationError` for malformed JSON (with the line and column of the first error), a repeated
    ///   key, any unknown key (naming it and listing the known ones), an unknown rule id, or a value of the wrong
    ///   type (naming its key path).
    public init(json data: Data, origin: String?, rules: [Rule]) throws(ConfigurationError) {
        guard data.count <= Self.maximumFileSize else {
            throw ConfigurationError(
                file: origin, keyPath: "", message: "is larger than 1 MiB (\(Self.maximumFileSize) bytes), the most a configuration file may hold"
            )
        }
        // Strict RFC 8259 first: Foundation's decoder accepts a trailing comma and a repeated key (StrictJSON).
        let positions: StrictJSON.Positions
        do {
            positions = try StrictJSON.validate(Array(data))
        } catch {
            if let offset = error.offset {
                let (line, column) = Self.lineAndColumn(of: offset, in: data)
                throw ConfigurationError(file: origin, keyPath: "", message: "not valid JSON (RFC 8259): \(error.message)", line: line, column: column)
            }
            // Located at the second occurrence, which is where the file stops being what it seems to say.
            var failure = ConfigurationError(file: origin, keyPath: Self.keyPath(error.path), message: "key '\(error.key ?? "")' appears twice; give each key once")
            if let first = error.firstOccurrence {
                let (line, column) = Self.lineAndColumn(of: first, in: data)
                failure.message = "key '\(error.key ?? "")' appears twice (first at line \(line), column \(column)); give each key once"
            }
            if let second = error.repeatOccurrence {
                (failure.line, failure.column) = Self.lineAndColumn(of: second, in: data)
            }
            throw failure
        }
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            // Strict JSON that Foundation still cannot hold (a number beyond a Double, 1e400): name its key's place.
            var failure = ConfigurationError(file: origin, keyPath: "", message: "not valid JSON (\(Self.describe(error)))")
            if let offset = positions.offset(of: Self.codingPath(of: error)) {
                (failure.line, failure.column) = Self.lineAndColumn(of: offset, in: data)
            }
            throw failure
        }
        do {
            self = try Self.decode(root, origin: origin, rules: rules)
        } catch var error {
            // Name the line and column of the key at fault (or of the value's key), as for a syntax error.
            let member = error.member.isEmpty ? error.keyPath.split(separator: ".").map(String.init) : error.member
            if !member.isEmpty, let offset = positions.offset(of: member) {
                (error.line, error.column) = Self.lineAndColumn(of: offset, in: data)
            }
            throw error
        }
    }

    /// The configuration a valid JSON document describes.
    ///
    /// - Throws: `ConfigurationError` whose `member` is the path of the key at fault (an unknown key, or the key of
    ///   a bad value), for `init(json:origin:rules:)` to locate.
    private static func decode(_ root: JSONValue, origin: String?, rules: [Rule]) throws(ConfigurationError) -> AuditConfiguration {
        guard case .object(let members) = root else {
            throw ConfigurationError(file: origin, keyPath: "", message: "expected a JSON object at the top level")
        }
        var configuration = AuditConfiguration(origin: origin)
        let descriptors = Dictionary(rules.map { ($0.id, $0.descriptor) }, uniquingKeysWith: { first, _ in first })
        for (key, value) in members {
            switch key {
            case "disabled_rules":
                configuration.disabledRules = Set(try ruleList(value, key: key, origin: origin, known: descriptors))
            case "opt_in_rules":
                configuration.optInRules = Set(try ruleList(value, key: key, origin: origin, known: descriptors))
            case "inconclusive_severity":
                configuration.inconclusiveSeverity = try severity(value, keyPath: key, origin: origin)
            case "rules":
                guard case .object(let ruleMembers) = value else {
                    throw ConfigurationError(file: origin, keyPath: key, message: "expected an object of rule ids", member: [key])
                }
                for (id, ruleValue) in ruleMembers {
                    guard let descriptor = descriptors[id] else {
                        throw ConfigurationError(
                            file: origin, keyPath: key, message: "unknown rule '\(id)' (rules: \(rules.map(\.id).joined(separator: ", ")))", member: [key, id]
                        )
                    }
                    configuration.overrides[id] = try ruleOverride(ruleValue, descriptor: descriptor, origin: origin)
                }
            default:
                throw ConfigurationError(
                    file: origin, keyPath: "", message: "unknown key '\(key)' (known: \(topLevelKeys.joined(separator: ", ")))", member: [key]
                )
            }
        }
        return configuration
    }

    /// The largest configuration file read, in bytes (1 MiB): a real one is a few hundred bytes, and a larger one
    /// (a two-million-element array) would cost seconds and hundreds of MB to check.
    public static let maximumFileSize = 1 << 20

    /// Finds `.lifetrace.json` in `directory` or the nearest directory above it.
    ///
    /// - Returns: The file's URL, or `nil` when no directory up to the root has one.
    public static func locate(from directory: URL) -> URL? {
        var current = directory.standardizedFileURL
        while true {
            let candidate = current.appendingPathComponent(fileName)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return nil }
            current = parent
        }
    }

    /// Reads the configuration at `url`.
    ///
    /// - Throws: `ConfigurationError` when the file cannot be read or is invalid (see `init(json:origin:rules:)`).
    public static func load(contentsOf url: URL, displayPath: String? = nil, rules: [Rule]) throws(ConfigurationError) -> AuditConfiguration {
        let path = displayPath ?? url.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ConfigurationError(file: path, keyPath: "", message: "is a directory, not a configuration file")
        }
        let data: Data
        do {
            // One byte past the limit is enough to refuse the file (and a FIFO or /dev/zero is never read to its end).
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
        } catch {
            // Foundation's error says little ("The file couldn't be opened"); open(2)'s errno says why.
            let descriptor = open(url.path, O_RDONLY)
            let reason = descriptor < 0 ? ": \(String(cString: strerror(errno))) (errno \(errno))" : ""
            if descriptor >= 0 { close(descriptor) }
            throw ConfigurationError(file: path, keyPath: "", message: "cannot read the file\(reason)")
        }
        return try AuditConfiguration(json: data, origin: path, rules: rules)
    }

    /// The 1-based line and column (counting Unicode scalars, a tab as one, a leading byte order mark as none) of
    /// byte `offset` in `data`.
    static func lineAndColumn(of offset: Int, in data: Data) -> (line: Int, column: Int) {
        var before = Array(data.prefix(offset))[...]
        if before.starts(with: [0xEF, 0xBB, 0xBF]) { before = before.dropFirst(3) }
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? before.startIndex
        let column = String(decoding: before[lineStart...], as: UTF8.self).unicodeScalars.count + 1
        return (line, column)
    }

    /// `rules.leaked_controller`, `disabled_rules[2]` for a path as `StrictJSON` gives it.
    static func keyPath(_ path: [String]) -> String {
        var text = ""
        for component in path {
            text += component.hasPrefix("[") || text.isEmpty ? component : "." + component
        }
        return text
    }

    /// The path of the value a `DecodingError` is about (`["rules", "leaked_controller", "grace"]`, array
    /// elements as `"[2]"`), or `[]`.
    private static func codingPath(of error: any Error) -> [String] {
        guard case DecodingError.dataCorrupted(let context) = error else { return [] }
        return context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
    }

    private static func describe(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            let message = context.underlyingError.map { String(describing: $0) } ?? context.debugDescription
            var path = ""
            for key in context.codingPath {
                if let index = key.intValue {
                    path += "[\(index)]"
                } else {
                    path += (path.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return path.isEmpty ? message : "\(message) at \(path)"
        }
        return String(describing: error)
    }

    private static func ruleList(_ value: JSONValue, key: String, origin: String?, known: [String: RuleDescriptor]) throws(ConfigurationError) -> [String] {
        guard case .array(let items) = value else {
            throw ConfigurationError(file: origin, keyPath: key, message: "expected an array of rule ids", member: [key])
        }
        var ids: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let id) = item else {
                throw ConfigurationError(file: origin, keyPath: key, message: "expected rule ids as strings", member: [key, "[\(index)]"])
            }
            guard known[id] != nil else {
                throw ConfigurationError(
                    file: origin, keyPath: key, message: "unknown rule '\(id)' (rules: \(known.keys.sorted().joined(separator: ", ")))", member: [key, "[\(index)]"]
                )
            }
            ids.append(id)
        }
        return ids
    }

    private static func severity(_ value: JSONValue, keyPath: String, origin: String?) throws(ConfigurationError) -> Severity {
        guard case .string(let text) = value, let severity = Severity(rawValue: text) else {
            throw ConfigurationError(file: origin, keyPath: keyPath, message: "expected \"error\", \"warning\" or \"note\"", member: keyPath.split(separator: ".").map(String.init))
        }
        return severity
    }

    private static func ruleOverride(_ value: JSONValue, descriptor: RuleDescriptor, origin: String?) throws(ConfigurationError) -> RuleOverride {
        let path = "rules.\(descriptor.id)"
        guard case .object(let members) = value else {
            throw ConfigurationError(file: origin, keyPath: path, message: "expected an object (\(knownRuleKeys(descriptor)))", member: ["rules", descriptor.id])
        }
        var override = RuleOverride()
        for (key, item) in members {
            switch key {
            case "enabled":
                guard case .bool(let flag) = item else {
                    throw ConfigurationError(file: origin, keyPath: "\(path).enabled", message: "expected true or false", member: ["rules", descriptor.id, key])
                }
                override.isEnabled = flag
            case "severity":
                override.severity = try severity(item, keyPath: "\(path).severity", origin: origin)
            default:
                guard let parameter = descriptor.parameters.first(where: { $0.name == key }) else {
                    throw ConfigurationError(file: origin, keyPath: path, message: "unknown key '\(key)' (\(knownRuleKeys(descriptor)))", member: ["rules", descriptor.id, key])
                }
                override.parameters[key] = try parameterValue(item, parameter: parameter, keyPath: "\(path).\(key)", origin: origin)
            }
        }
        return override
    }

    private static func parameterValue(_ value: JSONValue, parameter: RuleParameter, keyPath: String, origin: String?) throws(ConfigurationError) -> ParameterValue {
        switch (parameter.kind, value) {
        case (.duration, .string(let text)):
            guard let nanoseconds = TimeText.parseDuration(text) else {
                throw ConfigurationError(file: origin, keyPath: keyPath, message: "'\(text)' is not a duration (examples: \"5s\", \"1500ms\")")
            }
            return .duration(nanoseconds)
        case (.duration, .int(let seconds)) where seconds >= 0 && UInt64(seconds) <= UInt64.max / 1_000_000_000:
            return .duration(UInt64(seconds) * 1_000_000_000)
        case (.duration, .double(let seconds)) where seconds >= 0 && seconds < 1e9:
            return .duration(UInt64((seconds * 1e9).rounded()))
        case (.count, .int(let count)) where count >= 0:
            return .count(Int(count))
        case (.flag, .bool(let flag)):
            return .flag(flag)
        case (.names, .array(let items)):
            var names: [String] = []
            for item in items {
                guard case .string(let name) = item, !name.isEmpty else {
                    throw ConfigurationError(file: origin, keyPath: keyPath, message: "expected an array of non-empty strings")
                }
                names.append(name)
            }
            return .names(names)
        default:
            let expected = switch parameter.kind {
            case .duration: "a duration such as \"5s\" or a number of seconds"
            case .count: "a non-negative integer"
            case .flag: "true or false"
            case .names: "an array of strings such as [\"timer.start\", \"request.start\"]"
            }
            throw ConfigurationError(file: origin, keyPath: keyPath, message: "expected \(expected)")
        }
    }
}
