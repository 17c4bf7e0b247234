import Foundation
import Replay
import TraceLog
import TraceModel

extension Recorder {
    /// Records into the trace file at `path`: creates it, or, if it exists, appends a new run to it.
    ///
    /// Creating writes a header with the clock domain (`linuxBoottime` / `machContinuousTime` for
    /// `MonotonicClock`, `synthetic` for a `ManualClock`, `unknown` otherwise) and a wall-clock anchor taken now.
    /// Appending (`TraceWriter.openForAppend`) first cuts off a torn tail left by a killed process, then reads
    /// the trace's replay state (from its last checkpoint) to continue its controller serials (serials are unique
    /// per trace); if the clock is behind
    /// the trace's last timestamp (a reboot since), the new run's timestamps are shifted to start at it. Every
    /// run starts with `RecorderEvent.runStarted`.
    ///
    /// - Parameters:
    ///   - path: The `.lifetrace` file.
    ///   - options: Buffering and flushing.
    ///   - clock: Timestamp source; `MonotonicClock` by default.
    ///   - writerOptions: Frame size and compression of the `TraceWriter`.
    ///   - checkpoints: When the background thread writes checkpoint frames (Replay's `CheckpointingWriter`).
    /// - Throws: `RecorderError` (`.open`) with the path and the `TraceError` that caused it: the file is not a
    ///   trace, is of a newer format, is damaged in the middle, or cannot be created.
    public convenience init(
        path: String, options: RecorderOptions = RecorderOptions(), clock: any TraceClock = MonotonicClock(),
        writerOptions: TraceWriter.Options = TraceWriter.Options(),
        checkpoints: CheckpointingWriter.Policy = CheckpointingWriter.Policy()
    ) throws {
        let registry = ControllerRegistry()
        let writer: CheckpointingWriter
        var floor: UInt64 = 0
        do {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value ?? 0
            if size > 0 {
                writer = try CheckpointingWriter.openForAppend(path: path, policy: checkpoints, options: writerOptions)
                floor = writer.writer.lastTimestamp ?? 0
                registry.reserveSerials(through: Self.highestSerial(in: writer.state))
            } else {
                let header = TraceHeader(
                    clockDomain: Self.clockDomain(of: clock),
                    wallClockAnchor: WallClockAnchor(
                        unixNanoseconds: Int64(Date().timeIntervalSince1970 * 1e9), monotonicNanoseconds: clock.now()),
                    producer: "lifetrace-recorder 0.1.0",
                    hasSyntheticTimes: clock is ManualClock)
                writer = CheckpointingWriter(
                    writer: try TraceWriter(creating: path, header: header, options: writerOptions), policy: checkpoints)
            }
        } catch {
            throw RecorderError(code: .open, message: "cannot open the trace for recording", path: path, cause: error)
        }
        self.init(
            sink: TraceWriterSink(writer), options: options, clock: clock, registry: registry, timestampFloor: floor)
    }

    /// The trace header's clock domain for `clock`.
    static func clockDomain(of clock: any TraceClock) -> ClockDomain {
        if clock is MonotonicClock {
            #if canImport(Darwin)
            return .machContinuousTime
            #else
            return .linuxBoottime
            #endif
        }
        return clock is ManualClock ? .synthetic : .unknown
    }

    /// The highest controller serial the trace has used: every controller an event names gets a record in the
    /// replay state (callbacks, containers, marks, SwiftUI hosts), and dead ones pushed out of it stay in
    /// `deadSerials`. The state comes from the trace's last checkpoint plus the events after it, so reopening
    /// a long trace does not decode all of it.
    static func highestSerial(in state: ReplayState) -> UInt32 {
        max(state.controllers.keys.max() ?? 0, state.deadSerials.ranges.last?.upperBound ?? 0)
    }
}
