extension Timeline {
    /// The part of the timeline from `lower` to `upper` (trace clock nanoseconds, both inclusive): the lanes of
    /// controllers alive then (first seen by `upper`, not gone before `lower`), their spans cut to the window, the
    /// marks, diagnostics, deinits and process ends inside it, and the app state at `lower` with its changes up to
    /// `upper`. `start` and `end` become the window's (within the trace's own; a span still open at the trace's end and
    /// cut by the window ends at `upper`); an empty timeline, or a window
    /// outside the trace, gives one without events (`start == nil`).
    public func clipped(from lower: UInt64, to upper: UInt64) -> Timeline {
        guard let start, let end else { return self }
        var window = Timeline()
        let from = max(start, lower)
        let to = min(end, upper)
        guard from <= to else { return window }
        window.start = from
        window.end = to
        func inside(_ time: UInt64) -> Bool { time >= from && time <= to }
        for lane in lanes {
            let gone = lane.deinitTime ?? lane.processEndTime ?? UInt64.max
            guard lane.firstSeen <= to, gone >= from else { continue }
            var clipped = lane
            clipped.spans = lane.spans.compactMap { span in
                guard span.start <= to, (span.end ?? UInt64.max) >= from else { return nil }
                var cut = span
                cut.start = max(span.start, from)
                // A span still open at the trace's end ends with a window that closes earlier.
                cut.end = span.end.map { min($0, to) } ?? (to < end ? to : nil)
                return cut
            }
            clipped.marks = lane.marks.filter { inside($0.time) }
            clipped.diagnostics = lane.diagnostics.filter { inside($0.time) }
            clipped.deinitTime = lane.deinitTime.flatMap { inside($0) ? $0 : nil }
            clipped.processEndTime = lane.processEndTime.flatMap { inside($0) ? $0 : nil }
            window.lanes.append(clipped)
        }
        if let before = appChanges.last(where: { $0.time < from }) {
            window.appChanges.append(AppChange(time: from, state: before.state))
        }
        window.appChanges += appChanges.filter { inside($0.time) }
        return window
    }

    /// The timeline with only `selected` lanes (the app state stays).
    public func keeping(_ selected: (Lane) -> Bool) -> Timeline {
        var copy = self
        copy.lanes = lanes.filter(selected)
        return copy
    }
}
