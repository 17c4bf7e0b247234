import TraceModel

/// An event's `EventSource`, held by reference: what a monitor keeps per event it may report is mostly copied and
/// rarely has a source (only events imported or recorded with one), so an optional box (one word, no reference
/// counting when `nil`) costs less to copy than the optional strings of an `EventSource?`.
final class SourceBox {
    let source: EventSource

    init(_ source: EventSource) {
        self.source = source
    }
}
