import Foundation
import TraceLog

#if canImport(Glibc)
import Glibc
#endif

extension ImportCommand {
    /// The input read in chunks with `read(2)`, so no more than one chunk of it is in memory.
    final class InputFile {
        /// Bytes per `read(2)`.
        static let chunkSize = 1 << 20

        let path: String
        private var descriptor: Int32
        /// Size from `fstat` when opened (0 for a pipe).
        let size: UInt64

        /// - Throws: `ImportInputError` naming the path and the system's reason.
        init(path: String) throws {
            self.path = path
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw ImportInputError(message: "\(path): cannot read the file (\(String(cString: strerror(errno))))")
            }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                let reason = String(cString: strerror(errno))
                Glibc.close(descriptor)
                throw ImportInputError(message: "\(path): cannot read the file (\(reason))")
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                Glibc.close(descriptor)
                throw ImportInputError(message: "\(path): is a directory, not a log")
            }
            size = UInt64(max(0, info.st_size))
        }

        deinit { close() }

        func close() {
            if descriptor >= 0 { _ = Glibc.close(descriptor) }
            descriptor = -1
        }

        /// The next chunk, or `nil` at the end of the file.
        ///
        /// - Throws: `ImportInputError` when `read(2)` fails, with the offset reached.
        func next(maximum: Int = InputFile.chunkSize) throws -> [UInt8]? {
            guard descriptor >= 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: maximum)
            var count = 0
            while true {
                count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, maximum) }
                if count >= 0 || errno != EINTR { break }
            }
            guard count >= 0 else {
                throw ImportInputError(message: "\(path): cannot read the file (\(String(cString: strerror(errno))))")
            }
            if count == 0 { return nil }
            if count < maximum { chunk.removeLast(maximum - count) }
            return chunk
        }

        /// Why `path` cannot be imported, read from its first bytes: a missing or unreadable file, a directory,
        /// an empty file, a trace, a gzip file, or (text format) UTF-16 text or binary data (a NUL byte in the first
        /// 64 KiB). `nil` when it looks like a log.
        ///
        /// - Parameter fromStandardInput: `path` holds what was read from standard input: the hints then say
        ///   what to pipe the input through, not what to run on a file.
        static func refusal(of path: String, format: String, fromStandardInput: Bool = false) throws -> String? {
            let file: InputFile
            do {
                file = try InputFile(path: path)
            } catch let error as ImportInputError {
                return String(error.message.dropFirst(path.count + 2))
            }
            defer { file.close() }
            guard let head = try file.next(maximum: 64 * 1024) else {
                return fromStandardInput ? "nothing was read from standard input (0 bytes): nothing to import" : "empty file (0 bytes): nothing to import"
            }
            if head.starts(with: TraceHeader.magic) {
                let export = fromStandardInput ? "lifetrace export TRACE -o FILE.jsonl" : "lifetrace export \(path) -o FILE.jsonl"
                return "offset 0: already a Lifetrace trace, not a console log or JSONL export (to get JSONL: \(export))"
            }
            if head.starts(with: [0x1F, 0x8B]) {
                return "offset 0: gzip-compressed data; decompress it first (" + (fromStandardInput ? "pipe it through gunzip -c)" : "gunzip -k \(path))")
            }
            if format == "text", head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) {
                let convert = "iconv -f UTF-16 -t UTF-8" + (fromStandardInput ? "" : " \(path)")
                return "offset 0: UTF-16 text (byte order mark); convert it to UTF-8 first (" + (fromStandardInput ? "pipe it through \(convert))" : "\(convert))")
            }
            if format == "text", let nul = head.firstIndex(of: 0) {
                return "offset \(nul): a NUL byte: binary data, not a text console log"
            }
            return nil
        }
    }

    /// The progress line of a long import (`ProgressLine`: on a terminal only): how much of the input was read,
    /// its lines and the events written.
    final class ImportProgress {
        let input: String
        let totalBytes: UInt64
        private let line: ProgressLine

        init(input: String, totalBytes: UInt64, line: ProgressLine) {
            self.input = input
            self.totalBytes = totalBytes
            self.line = line
        }

        /// A progress reporter when standard error is a terminal, else `nil`.
        /// - Parameters:
        ///   - input: The file read (its size is the 100 %).
        ///   - shownAs: How the line names the input (`input` itself, or `<stdin>` for standard input's copy).
        static func forTerminal(input: String, shownAs: String? = nil, output: CommandOutput) -> ImportProgress? {
            guard let line = ProgressLine(output: output) else { return nil }
            let size = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? NSNumber)?.uint64Value ?? 0
            return ImportProgress(input: shownAs ?? input, totalBytes: size, line: line)
        }

        /// - Parameters:
        ///   - bytes: Bytes read so far, when known.
        ///   - lines: Lines read so far.
        ///   - events: Events written so far.
        func update(bytes: UInt64?, lines: Int, events: UInt64) {
            line.update({
                var text = "lifetrace import: \(input): "
                if let bytes, totalBytes > 0 {
                    text += "\(min(100, bytes * 100 / totalBytes))% of \(Self.megabytes(totalBytes)), "
                }
                return text + "\(lines) lines, \(events) events"
            }())
        }

        /// Erases the progress line.
        func clear() {
            line.finish()
        }

        /// `12.3 MB` (decimal megabytes, one decimal).
        static func megabytes(_ bytes: UInt64) -> String {
            let tenths = (bytes + 50_000) / 100_000
            return "\(tenths / 10).\(tenths % 10) MB"
        }
    }
}

/// The input cannot be imported: unreadable, not a log, or without any lifecycle line.
struct ImportInputError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
