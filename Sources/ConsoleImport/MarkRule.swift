import TraceModel

/// A `--mark 'SUBSTRING=MARK[,field=value…]'` rule: every line containing `substring` becomes a mark named
/// `name` with `fields`.
///
/// Values are read with `FieldValue(parsing:)` (`true`/`false`, integers, doubles, else strings), so
/// `saveDraft=save,critical=true,key=draft` gives `save` with `critical` = true and `key` = "draft".
public struct MarkRule: Sendable, Hashable {
    /// Text a line must contain (case-sensitive).
    public var substring: String
    /// The mark's name: a standard one from `MarkName` or any custom name.
    public var name: String
    public var fields: [MarkField]

    public init(substring: String, name: String, fields: [MarkField] = []) {
        self.substring = substring
        self.name = name
        self.fields = fields
    }

    /// Parses `SUBSTRING=MARK[,field=value…]`. The substring ends at the first `=`.
    ///
    /// - Throws: `ConsoleImportError` with code `.badMarkRule` when the substring, the mark name or a field
    ///   name is empty, a field has no `=`, or a field is given twice (`key=a,key=b`: a mark has one value per
    ///   field, and `MarkEvent[field:]` would silently read only the first). The message quotes the rule as
    ///   `--mark '…'`, the option it comes from.
    public init(parsing spec: String) throws(ConsoleImportError) {
        guard let equals = spec.firstIndex(of: "=") else {
            throw ConsoleImportError(.badMarkRule, "--mark '\(spec)' has no '=': expected 'SUBSTRING=MARK[,field=value…]'")
        }
        let substring = String(spec[..<equals])
        let parts = spec[spec.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
        guard !substring.isEmpty, let name = parts.first.map(String.init), !name.isEmpty else {
            throw ConsoleImportError(.badMarkRule, "--mark '\(spec)' needs a substring and a mark name: 'SUBSTRING=MARK[,field=value…]'")
        }
        var fields: [MarkField] = []
        var written: [String: Substring] = [:]
        for part in parts.dropFirst() {
            guard let fieldEquals = part.firstIndex(of: "="), fieldEquals != part.startIndex else {
                throw ConsoleImportError(.badMarkRule, "--mark '\(spec)': field '\(part)' is not 'field=value'")
            }
            let fieldName = String(part[..<fieldEquals])
            if let first = written[fieldName] {
                let again = first == part ? "given twice" : "given twice ('\(first)' and '\(part)')"
                throw ConsoleImportError(
                    .badMarkRule, "--mark '\(spec)': field '\(fieldName)' is \(again); a mark has one value per field")
            }
            written[fieldName] = part
            let value = String(part[part.index(after: fieldEquals)...])
            fields.append(MarkField(fieldName, FieldValue(parsing: value)))
        }
        self.init(substring: substring, name: name, fields: fields)
    }
}
