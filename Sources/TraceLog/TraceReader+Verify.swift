import TraceModel

extension TraceReader {
    /// Checks the whole file, ignoring the index while doing so: every frame header and payload CRC, that every
    /// events frame decodes to the count and time range its header claims, that timestamps never decrease, that
    /// sequence numbers and ordinals follow each other, that checkpoints inflate, and that the index (if any)
    /// equals the frames found by walking.
    ///
    /// - Returns: The report; `problems` names each problem's offset (and event ordinal where it applies).
    /// - Throws: `TraceError` `.io` only when the file cannot be read.
    public func verify() throws -> VerificationReport {
        let scan = try FrameScan.walk(file, start: headerLength, fileSize: fileSize, verifyPayloads: true)
        var problems = scan.orderProblems
        var eventsChecked: UInt64 = 0
        var checkpointsChecked = 0
        var previousTimestamp: UInt64?
        for frame in scan.frames {
            if frame.kind == .events {
                do {
                    let events = try decodeFrame(frame)
                    eventsChecked += UInt64(events.count)
                    if let first = events.first, first.timestamp != frame.firstTimestamp {
                        problems.append(TraceError(
                            .corruptFrame,
                            "events frame \(frame.sequence): first event at \(first.timestamp) ns, header says \(frame.firstTimestamp) ns",
                            file: path, offset: frame.offset, eventOrdinal: frame.firstOrdinal
                        ))
                    }
                    if let previousTimestamp, let first = events.first, first.timestamp < previousTimestamp {
                        problems.append(TraceError(
                            .timestampWentBackwards,
                            "event at \(first.timestamp) ns follows an event at \(previousTimestamp) ns",
                            file: path, offset: frame.offset, eventOrdinal: frame.firstOrdinal
                        ))
                    }
                    if let last = events.last { previousTimestamp = last.timestamp }
                } catch let error as TraceError {
                    problems.append(error)
                }
            } else if frame.kind == .checkpoint {
                do {
                    _ = try checkpointPayload(frame)
                    checkpointsChecked += 1
                } catch let error as TraceError {
                    problems.append(error)
                }
            }
        }
        var isCleanlyClosed = false
        do {
            if let indexed = try Self.readIndex(file, headerLength: headerLength, fileSize: fileSize) {
                if indexed == scan.frames, scan.failure == nil {
                    isCleanlyClosed = true
                } else {
                    problems.append(TraceError(
                        .corruptIndex,
                        "the index lists \(indexed.count) frames that differ from the \(scan.frames.count) frames found by walking",
                        file: path, offset: scan.indexOffset
                    ))
                }
            }
        } catch let error as TraceError {
            problems.append(error.in(file: path))
        }
        var tornTail: RecoveryReport?
        if let failure = scan.failure {
            problems.append(failure.in(file: path))
            if scan.failureIsTail {
                tornTail = RecoveryReport(offset: scan.validEnd, droppedBytes: fileSize - scan.validEnd, reason: failure.message)
            }
        }
        problems.sort { ($0.offset ?? 0) < ($1.offset ?? 0) }
        return VerificationReport(
            problems: problems, framesChecked: scan.frames.count, eventsChecked: eventsChecked,
            checkpointsChecked: checkpointsChecked, isCleanlyClosed: isCleanlyClosed, tornTail: tornTail
        )
    }
}
