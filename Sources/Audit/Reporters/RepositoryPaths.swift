/// How reports name files: relative to the repository's root, as GitHub code scanning and annotations expect
/// (a result is shown only on a file committed at that path), or as an absolute path for a file outside it.
///
/// Two kinds of path come in: the paths of inputs, as given on the command line (relative to the working
/// directory), and the source files recorded in events (an imported console log, recorded relative to the
/// repository root by `lifetrace import`; the Swift file of a recorded mark, resolved by the CLI). Pure string
/// work: nothing here touches the file system.
public struct RepositoryPaths: Sendable, Hashable {
    /// The repository root, absolute (the nearest directory upwards from the working directory holding `.git`).
    public var root: String
    /// The working directory the input paths are relative to, absolute.
    public var workingDirectory: String

    public init(root: String, workingDirectory: String) {
        self.root = Self.normalized(root)
        self.workingDirectory = Self.normalized(workingDirectory)
    }

    /// An input path (relative to `workingDirectory`, or absolute) as reports name it: relative to `root` when it
    /// lies under it (`traces/a.lifetrace`), else absolute (`/tmp/a.lifetrace`).
    public func input(_ path: String) -> String {
        relativeToRoot(Self.normalized(path.hasPrefix("/") ? path : workingDirectory + "/" + path))
    }

    /// A recorded source file as reports name it: an absolute path relative to `root` when under it (else kept
    /// absolute); a relative one is already relative to the root and kept.
    public func recorded(_ file: String) -> String {
        file.hasPrefix("/") ? relativeToRoot(Self.normalized(file)) : file
    }

    func relativeToRoot(_ absolute: String) -> String {
        if absolute == root { return "." }
        let prefix = root == "/" ? "/" : root + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    /// `path` with `.` and empty components removed and `..` applied (`/a/./b/../c` → `/a/c`); relative paths stay
    /// relative (a leading `..` is kept).
    public static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        let isAbsolute = path.hasPrefix("/")
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                } else if !isAbsolute {
                    parts.append(part)
                }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return isAbsolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// A URI for a path as reports name it (SARIF `artifactLocation.uri`): a relative reference for a relative path
    /// (`traces/a%20b.lifetrace`), a `file://` URI for an absolute one (`file:///tmp/a.lifetrace`; RFC 8089), with
    /// every byte outside the URI unreserved and sub-delimiter characters, `:` and `@` percent-encoded (RFC 3986 §2).
    /// A relative path whose first segment holds a `:` gets a leading `./` so it is not read as a scheme.
    public static func uri(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            let scalar = Unicode.Scalar(byte)
            let safe = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "-._~/!$&'()*+,;=:@".unicodeScalars.contains(scalar)
            if safe {
                out.unicodeScalars.append(scalar)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        if path.hasPrefix("/") { return "file://" + out }
        if let firstSegment = out.split(separator: "/", omittingEmptySubsequences: false).first, firstSegment.contains(":") {
            return "./" + out
        }
        return out
    }
}
