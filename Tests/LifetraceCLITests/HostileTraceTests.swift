import Foundation
import Testing
import TraceLog
import TraceModel

/// Traces whose CRCs all hold but whose contents are hostile: deflate bombs and frames out of time order. Every
/// command reading them runs as a child process, so a trap or an abort is seen as the signal it is, and so is
/// the memory the command needed (its peak RSS).
@Suite("hostile traces: bounded memory, no trap")
struct HostileTraceTests {
    /// The commands that read a trace, with their arguments after the trace's path.
    static let readers: [(command: String, extra: [String])] = [
        ("verify", []), ("info", []), ("events", []), ("state", []), ("timeline", []), ("audit", []),
        ("export", ["-o", "out.jsonl"]),
    ]

    /// CRC-32 as zlib computes it (IEEE 802.3, reflected), for rewriting a frame header with a fresh CRC.
    static func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }

    /// `bytes` with `value` stored little-endian over `size` bytes at `field` of the frame header at `frame`, and
    /// that header's CRC recomputed.
    static func rewriting(_ bytes: [UInt8], frame: UInt64, field: Int, size: Int, value: UInt64) -> [UInt8] {
        var bytes = bytes
        let start = Int(frame)
        for index in 0..<size { bytes[start + field + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
        let crc = crc32(bytes[start..<(start + 60)])
        for index in 0..<4 { bytes[start + 60 + index] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index))) }
        return bytes
    }

    /// A trace of one events frame holding one mark whose string field is `bytes` zero bytes: deflate codes it at
    /// about 1000:1, so the frame is a bomb of `bytes` raw bytes in a few tens of KB. Returns the file's bytes and
    /// the frame.
    static func bomb(_ path: String, bytes: Int) throws -> ([UInt8], FrameInfo) {
        var options = TraceWriter.Options()
        options.compressionLevel = 9
        let writer = try TraceWriter(
            creating: path, header: TraceHeader(clockDomain: .synthetic, wallClockAnchor: .none, producer: "bomb"), options: options
        )
        let filler = String(repeating: "\0", count: bytes)
        try writer.append(.mark(MarkEvent("bomb", fields: [MarkField("filler", .string(filler))]), at: 1000))
        try writer.close()
        let reader = try TraceReader(path: path)
        let frame = try #require(reader.frames.first { $0.kind == .events })
        return (Array(try Data(contentsOf: URL(fileURLWithPath: path))), frame)
    }

    @Test("a deflate bomb whose header claims 65,536 events: every reader stays under 256 MiB and names the ops stream")
    func bombClaimingEvents() throws {
        let scratch = try CLIScratch("bomb")
        let path = scratch.path("bomb.lifetrace")
        let (clean, frame) = try Self.bomb(path, bytes: 48 << 20)
        #expect(frame.rawLength > 48 << 20)
        #expect(frame.compressedLength < 100_000, "the bomb inflates about 1000:1")
        let lying = Self.rewriting(clean, frame: frame.offset, field: 40, size: 4, value: 65_536)
        try Data(lying).write(to: URL(fileURLWithPath: path))
        for reader in Self.readers {
            let run = try ChildRun.lifetrace([reader.command, "bomb.lifetrace"] + reader.extra, in: scratch.url.path)
            #expect(run.signal == nil, "\(reader.command): killed by signal \(run.signal ?? 0): \(run.standardError)")
            #expect(run.exitStatus == 1 || run.exitStatus == 2, "\(reader.command): exit \(String(describing: run.exitStatus))")
            #expect(run.output.contains("65536 events but its ops stream holds"), "\(reader.command): \(run.output)")
            #expect(run.peakMiB < 256, "\(reader.command): peak RSS \(run.peakMiB) MiB")
        }
    }

    @Test("frame headers claiming more than a reader holds per frame are refused before anything is allocated")
    func oversizedClaims() throws {
        let scratch = try CLIScratch("bomb-claims")
        let path = scratch.path("bomb.lifetrace")
        let (clean, frame) = try Self.bomb(path, bytes: 1 << 20)
        let claims: [(field: Int, value: UInt64, message: String)] = [
            (40, UInt64(frame.rawLength), "more than the 65536 a frame may hold"),
            (44, 1 << 30, "exceeds the 64 MiB limit per frame"),
        ]
        for claim in claims {
            try Data(Self.rewriting(clean, frame: frame.offset, field: claim.field, size: 4, value: claim.value)).write(to: URL(fileURLWithPath: path))
            for reader in Self.readers {
                let run = try ChildRun.lifetrace([reader.command, "bomb.lifetrace"] + reader.extra, in: scratch.url.path)
                #expect(run.signal == nil, "\(reader.command): killed by signal \(run.signal ?? 0)")
                #expect(run.exitStatus == 1 || run.exitStatus == 2, "\(reader.command): exit \(String(describing: run.exitStatus))")
                #expect(run.output.contains(claim.message), "\(reader.command): \(run.output)")
                #expect(run.peakMiB < 64, "\(reader.command): peak RSS \(run.peakMiB) MiB")
            }
        }
    }

    /// A closed trace of four events frames from the simulator, its bytes and frames.
    static func fourFrames(_ scratch: CLIScratch) throws -> ([UInt8], [FrameInfo]) {
        let path = scratch.path("clean.lifetrace")
        let simulated = runCLI(["simulate", "--generate", "30000", "-o", path])
        try #require(simulated.code == .success, "\(simulated.err)")
        let frames = try TraceReader(path: path).frames.filter { $0.kind == .events }
        try #require(frames.count >= 2)
        return (Array(try Data(contentsOf: URL(fileURLWithPath: path))), frames)
    }

    @Test("frames out of time order, or a first timestamp of 0, with fresh CRCs: no command traps", arguments: ["late first frame", "first frame at 0", "second frame before the first", "first frame at the end of the clock"])
    func framesOutOfOrder(_ lie: String) throws {
        let scratch = try CLIScratch("out-of-order")
        let (clean, frames) = try Self.fourFrames(scratch)
        var bytes = clean
        let target = lie == "second frame before the first" ? frames[1] : frames[0]
        let span = target.lastTimestamp - target.firstTimestamp
        let first: UInt64
        switch lie {
        case "late first frame": first = 1 << 60
        case "first frame at 0": first = 0
        case "first frame at the end of the clock": first = UInt64.max - span
        default: first = 1
        }
        bytes = Self.rewriting(bytes, frame: target.offset, field: 24, size: 8, value: first)
        bytes = Self.rewriting(bytes, frame: target.offset, field: 32, size: 8, value: first + span)
        let index = frames.last!.endOffset
        for (name, content) in [("closed", bytes), ("unclosed", Array(bytes[..<Int(index)]))] {
            try Data(content).write(to: URL(fileURLWithPath: scratch.path("lie.lifetrace")))
            for reader in Self.readers + [("timeline", ["--width", "10"]), ("state", ["--at", "1s"]), ("events", ["--from", "1s"])] {
                let run = try ChildRun.lifetrace([reader.command, "lie.lifetrace"] + reader.extra, in: scratch.url.path)
                #expect(run.signal == nil, "\(lie), \(name): \(reader.command) killed by signal \(run.signal ?? 0): \(run.standardError.prefix(400))")
                #expect((0...2).contains(run.exitStatus ?? -1), "\(lie), \(name): \(reader.command)")
            }
        }
    }
}
