import Audit
import Foundation

/// Rules a team writes itself, in files next to its app: parsed, checked and compiled to `Rule`s that the audit
/// runs like the built-in ones (docs/RULE_LANGUAGE.md).
///
/// ```swift
/// let custom = try RuleLanguage.load(["lifetrace-rules"])        // every *.rule file, sorted by name
/// let auditor = try Auditor(configuration: configuration, rules: BuiltinRules.all + custom)
/// ```
public enum RuleLanguage {
    /// The directory a project keeps its rule files in, found like `.lifetrace.json`: in the current directory or
    /// the nearest one above it.
    public static let directoryName = "lifetrace-rules"
    /// The extension of rule files.
    public static let fileExtension = "rule"

    /// The rules of one file's `text`; `file` is the name errors give. `reserved` are ids already taken (the
    /// built-in rules', and those of files read before).
    ///
    /// - Throws: `RuleFileError` for the first problem, with FILE:LINE:COLUMN and what was expected.
    public static func rules(in text: String, file: String, reserved: [String] = BuiltinRules.all.map(\.id)) throws(RuleFileError) -> [Rule] {
        var taken = Set(reserved)
        var rules: [Rule] = []
        for syntax in try RuleFileParser.parse(text, file: file) {
            guard taken.insert(syntax.id).inserted else {
                let owner = BuiltinRules.rule(syntax.id) != nil ? "a built-in rule" : "another rule"
                throw RuleFileError(syntax.location, "rule id '\(syntax.id)' is already \(owner)'s; choose another id")
            }
            let (program, descriptor) = try RuleCompiler.compile(syntax, file: file)
            rules.append(Rule(descriptor: descriptor) { settings in LanguageRule(program, settings: settings) })
        }
        return rules
    }

    /// The rules of `paths`: each a rule file, or a directory whose `*.rule` files are read in name order.
    ///
    /// - Throws: `RuleFileError` for an unreadable path or the first problem in a file.
    public static func load(_ paths: [String], reserved: [String] = BuiltinRules.all.map(\.id)) throws(RuleFileError) -> [Rule] {
        var rules: [Rule] = []
        var taken = reserved
        for path in paths {
            for file in try files(at: path) {
                let text: String
                do {
                    text = try String(contentsOfFile: file, encoding: .utf8)
                } catch {
                    throw RuleFileError(SourceLocation(file: file, line: 1, column: 1), "cannot read the rule file (\(error.localizedDescription))")
                }
                let found = try Self.rules(in: text, file: file, reserved: taken)
                taken += found.map(\.id)
                rules += found
            }
        }
        return rules
    }

    /// `path` if it is a file, else the `*.rule` files directly in the directory `path`, sorted.
    static func files(at path: String) throws(RuleFileError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw RuleFileError(SourceLocation(file: path, line: 1, column: 1), "no such rule file or directory")
        }
        guard isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let directory = path.hasSuffix("/") ? path : path + "/"
        return names.filter { $0.hasSuffix("." + fileExtension) }.sorted().map { directory + $0 }
    }

    /// The nearest `lifetrace-rules` directory from `start` upwards, or `nil`.
    public static func locateDirectory(from start: URL) -> URL? {
        var directory = start.standardizedFileURL
        while true {
            let candidate = directory.appendingPathComponent(directoryName)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue { return candidate }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return nil }
            directory = parent
        }
    }
}
