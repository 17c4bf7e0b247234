import Foundation

/// Path checks shared by commands that write files, so an output never replaces one of their inputs.
enum FilePaths {
    /// Whether `first` and `second` name one file: the same path after resolving symbolic links, or (both
    /// existing) the same device and inode, so hard links count too.
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        let resolved = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        if resolved(first) == resolved(second) { return true }
        let manager = FileManager.default
        guard let one = try? manager.attributesOfItem(atPath: first), let other = try? manager.attributesOfItem(atPath: second),
              let inodeOne = one[.systemFileNumber] as? NSNumber, let inodeOther = other[.systemFileNumber] as? NSNumber,
              let deviceOne = one[.systemNumber] as? NSNumber, let deviceOther = other[.systemNumber] as? NSNumber
        else { return false }
        return inodeOne == inodeOther && deviceOne == deviceOther
    }

    /// Why a file cannot be written at `path` because of its directory (missing, or not a directory), or `nil`.
    static func unwritableDirectory(of path: String) -> String? {
        let directory = (path as NSString).deletingLastPathComponent
        guard !directory.isEmpty else { return nil }
        if !FileManager.default.fileExists(atPath: directory) { return "directory \(directory) does not exist" }
        if !isDirectory(directory) { return "\(directory) is not a directory" }
        return nil
    }

    /// Whether `path` exists and is a directory.
    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
