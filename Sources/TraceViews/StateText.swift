import Replay
import TraceModel

/// The text `lifetrace state TRACE --at T` prints, so the HTML report's state panel and the command say the same.
public enum StateText {
    /// The first line's part after the instant: `(87 events; app active; scenes main=active)`.
    public static func summary(_ state: ReplayState) -> String {
        var text = "(\(state.eventCount) events; app \(state.app.name)"
        if !state.scenes.isEmpty {
            text += "; scenes " + state.scenes.keys.sorted().map { "\($0.controlCharactersEscaped)=\(state.scenes[$0]!.name)" }.joined(separator: ", ")
        }
        return text + ")"
    }

    /// The first line: `state at 6.000 s (87 events; app active; scenes main=active)`.
    ///
    /// - Parameter relative: The instant, in nanoseconds after the trace's first event.
    public static func headline(_ state: ReplayState, relative: UInt64) -> String {
        "state at \(TimeText.seconds(relative)) \(summary(state))"
    }
}
