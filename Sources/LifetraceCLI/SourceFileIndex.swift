import Audit
import Foundation
import Synchronization
import TraceModel

/// Finds the committed file a recorded call site names. The recorder captures `#fileID` (`NoteApp/NoteEditorViewController.swift`:
/// module and file name, no directories, so a trace says nothing about the machine it was recorded on); reports
/// need the file's path in the repository (`Sources/NoteApp/NoteEditorViewController.swift`).
///
/// A recorded file that exists under the repository root as written (an imported log, recorded relative to the
/// root), or is absolute, is kept. Otherwise the `.swift` files under the root (hidden directories and `.build`
/// skipped, listed once, on first need) whose path ends with `/Module/File.swift` are the candidates, else those
/// named `File.swift`; exactly one candidate is the answer, and with none or several the recorded name is kept.
final class SourceFileIndex: Sendable {
    let root: String
    private struct State {
        /// The `.swift` files under the root by file name, once listed.
        var filesByName: [String: [String]]?
        /// Every recorded name resolved so far, and its answer.
        var resolved: [String: String] = [:]
    }
    private let state = Mutex(State())

    init(root: String) {
        self.root = root
    }

    /// `source` with its file resolved as above.
    func resolve(_ source: EventSource?) -> EventSource? {
        guard var source, let file = source.file, !file.isEmpty else { return source }
        source.file = resolve(file)
        return source
    }

    func resolve(_ file: String) -> String {
        state.withLock { state in
            if let known = state.resolved[file] { return known }
            let answer = resolve(file, &state)
            state.resolved[file] = answer
            return answer
        }
    }

    private func resolve(_ file: String, _ state: inout State) -> String {
        if file.hasPrefix("/") || FileManager.default.fileExists(atPath: root + "/" + file) { return file }
        let name = FilePaths.lastComponent(of: file)
        guard name.hasSuffix(".swift") else { return file }
        if state.filesByName == nil { state.filesByName = Self.swiftFiles(under: root) }
        let candidates = state.filesByName?[name] ?? []
        let exact = candidates.filter { $0 == file || $0.hasSuffix("/" + file) }
        if exact.count == 1 { return exact[0] }
        return candidates.count == 1 ? candidates[0] : file
    }

    /// The `.swift` files under `root` (relative paths), by file name.
    static func swiftFiles(under root: String) -> [String: [String]] {
        var index: [String: [String]] = [:]
        guard let enumerator = FileManager.default.enumerator(at: URL(fileURLWithPath: root), includingPropertiesForKeys: [.isDirectoryKey])
        else { return index }
        let prefix = RepositoryPaths.normalized(root) + "/"
        for case let url as URL in enumerator {
            let name = url.lastPathComponent
            if name.hasPrefix(".") {
                enumerator.skipDescendants()
                continue
            }
            guard name.hasSuffix(".swift") else { continue }
            let path = RepositoryPaths.normalized(url.path)
            guard path.hasPrefix(prefix) else { continue }
            index[name, default: []].append(String(path.dropFirst(prefix.count)))
        }
        return index
    }
}

extension TraceAudit {
    /// The audit with every finding's and related event's recorded source file resolved by `index`.
    func resolvingSources(_ index: SourceFileIndex) -> TraceAudit {
        var audit = self
        audit.findings = findings.map { finding in
            var finding = finding
            finding.source = index.resolve(finding.source)
            finding.related = finding.related.map { related in
                var related = related
                related.source = index.resolve(related.source)
                return related
            }
            return finding
        }
        return audit
    }
}
