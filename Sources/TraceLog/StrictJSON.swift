import Foundation

/// A strict RFC 8259 check of a whole JSON text written by a person (the audit's `.lifetrace.json`), with the
/// place of the first problem, for the modules of this package.
///
/// Foundation on Linux (swift-corelibs-foundation, Swift 6.3) is lenient in ways a configuration file must not
/// be: `JSONSerialization` and `JSONDecoder` (with `allowsJSON5` off, the default) both accept a trailing comma in
/// an object or an array (`{"grace": "5s",}`, `[1, 2,]`) and silently keep one of two equal member names. This
/// check uses the JSON Lines reader's parser (`JSONLParser`, strict RFC 8259) over the whole text and then looks
/// for repeated member names (RFC 8259 §4: names SHOULD be unique; which one wins is unpredictable).
///
/// A UTF-8 byte order mark before the text is allowed (RFC 8259 §8.1 lets a parser ignore one).
package enum StrictJSON {
    /// The first problem found in a JSON text.
    package struct Problem: Error, Sendable, Equatable {
        /// What is wrong, e.g. `expected a member name in quotes` or `member "grace" appears twice`.
        package var message: String
        /// For a syntax error, the 0-based byte offset in the text (BOM included) where parsing stopped; `nil` for
        /// a repeated member name.
        package var offset: Int?
        /// For a repeated member name, the path of the object holding it (`["rules", "leaked_controller"]`,
        /// array elements as `[2]`); empty for the top level or a syntax error.
        package var path: [String]
        /// The repeated member name, for a repeated member name.
        package var key: String?
        /// For a repeated member name, the 0-based byte offsets in the text (BOM included) of its first and second
        /// occurrence (their opening quotes).
        package var firstOccurrence: Int?
        package var repeatOccurrence: Int?
    }

    /// Checks that `bytes` hold exactly one JSON value (RFC 8259) with no member name repeated in any object.
    ///
    /// - Throws: `Problem` for the first syntax error (with its byte offset) or repeated member name (with the
    ///   path of its object and the offsets of both occurrences).
    /// - Returns: Where each member name (its opening quote) and array element starts: the byte offset in `bytes`
    ///   for each path (`["rules", "leaked_controller", "grace"]`, array elements as `"[2]"`), so that a later
    ///   error about a key or a value can name its line and column (`offset(of:)`).
    @discardableResult
    package static func validate(_ bytes: [UInt8]) throws(Problem) -> Positions {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let skipped = bytes.starts(with: bom) ? bom.count : 0
        let value: JSONLValue
        let offsets: [String: Int]
        let repeats: [String: Int]
        do {
            (value, offsets, repeats) = try JSONLParser.parseRecordingMembers(Array(bytes[skipped...]))
        } catch {
            // The parser was written for one line of JSON Lines; here the text is a whole file.
            let offset = error.column - 1 + skipped
            let message = offset >= bytes.count
                ? "unexpected end of the file (a value, or the end of an object or array, is missing)"
                : error.message.replacingOccurrences(of: "end of line", with: "end of the file")
            throw Problem(message: message, offset: offset, path: [], key: nil)
        }
        let positions = Positions(offsets: offsets, shift: skipped)
        do {
            var path: [String] = []
            try checkUniqueNames(value, path: &path)
        } catch var problem {
            if let key = problem.key {
                let member = (problem.path + [key]).joined(separator: "\u{1F}")
                problem.firstOccurrence = positions.offset(of: problem.path + [key])
                problem.repeatOccurrence = repeats[member].map { $0 + skipped }
            }
            throw problem
        }
        return positions
    }

    /// Where the members of a valid JSON text start (see `validate(_:)`).
    package struct Positions: Sendable {
        fileprivate var offsets: [String: Int]
        fileprivate var shift: Int

        /// The byte offset of the member name (or array element) at `path` in the text, or `nil` when there is none.
        package func offset(of path: [String]) -> Int? {
            offsets[path.joined(separator: "\u{1F}")].map { $0 + shift }
        }
    }

    /// Throws for the first object holding a name twice; `path` is the value's (one array, extended and cut back
    /// as the walk goes, so that the check is linear in the text).
    private static func checkUniqueNames(_ value: JSONLValue, path: inout [String]) throws(Problem) {
        switch value {
        case .object(let members):
            var seen = Set<String>()
            for member in members where !seen.insert(member.key).inserted {
                throw Problem(message: "member \"\(member.key)\" appears twice in the same object", offset: nil, path: path, key: member.key)
            }
            for member in members {
                path.append(member.key)
                try checkUniqueNames(member.value, path: &path)
                path.removeLast()
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                // Only an object can hold a repeated name: scalars need no walk (and no path).
                switch element {
                case .object, .array:
                    path.append("[\(index)]")
                    try checkUniqueNames(element, path: &path)
                    path.removeLast()
                case .null, .bool, .number, .string:
                    continue
                }
            }
        case .null, .bool, .number, .string:
            break
        }
    }
}
