import Audit
import Foundation

/// Where the repository is, so reports name files as GitHub does: relative to its root.
extension FilePaths {
    /// The repository root: the nearest directory from the working directory upwards that holds `.git` (a
    /// directory, or the file a worktree or submodule has); the working directory itself when there is none.
    static func repositoryRoot() -> String {
        let manager = FileManager.default
        let start = RepositoryPaths.normalized(manager.currentDirectoryPath)
        var directory = start
        while true {
            if manager.fileExists(atPath: directory == "/" ? "/.git" : directory + "/.git") { return directory }
            if directory == "/" { return start }
            directory = FilePaths.directory(of: directory)
        }
    }

    /// The repository root and the working directory, for reports (`TraceAudit.paths`).
    static func repositoryPaths() -> RepositoryPaths {
        RepositoryPaths(root: repositoryRoot(), workingDirectory: FileManager.default.currentDirectoryPath)
    }
}
