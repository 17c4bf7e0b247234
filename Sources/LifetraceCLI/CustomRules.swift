import ArgumentParsing
import Audit
import Foundation
import RuleLanguage

/// The rules a project writes itself (docs/RULE_LANGUAGE.md): the `--rules PATH` options, else the nearest
/// `lifetrace-rules/` directory from the current directory upwards.
enum CustomRules {
    static let option = OptionSpec(
        "rules", value: "PATH", repeatable: true,
        help: "A rule file, or a directory of *.rule files (default: the nearest lifetrace-rules/ directory upwards)."
    )

    /// The custom rules `arguments` select, compiled.
    ///
    /// - Throws: `RuleFileError` naming FILE:LINE:COLUMN for the first problem in a rule file.
    static func load(_ arguments: ParsedArguments) throws -> [Rule] {
        var paths = arguments.allValues("rules")
        if paths.isEmpty {
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            guard let found = RuleLanguage.locateDirectory(from: cwd) else { return [] }
            // Named relative to the current directory when below it, as errors and `lifetrace rules` show it.
            let base = cwd.standardizedFileURL.path + "/"
            paths = [found.path.hasPrefix(base) ? String(found.path.dropFirst(base.count)) : found.path]
        }
        return try RuleLanguage.load(paths)
    }
}
