/// The result of `TraceReader.verify()`: every check of the file and what failed.
public struct VerificationReport: Sendable, Equatable {
    /// Everything wrong, in file order: CRC failures, undecodable frames, time going backwards, sequence gaps,
    /// an index that disagrees with the frames, a torn tail. Empty when the file is sound.
    public var problems: [TraceError]
    /// Frames whose header and payload were checked (events, checkpoints and others; not the index).
    public var framesChecked: Int
    /// Events decoded.
    public var eventsChecked: UInt64
    /// Checkpoint frames whose payload was checked.
    public var checkpointsChecked: Int
    /// Whether the file ends with a valid footer and an index equal to the frames found by walking.
    public var isCleanlyClosed: Bool
    /// What `lifetrace verify --repair` would cut off: a torn tail after the last valid frame, if any.
    public var tornTail: RecoveryReport?

    public var isSound: Bool { problems.isEmpty }
}
