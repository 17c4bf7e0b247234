import TraceModel

extension ReplayState {
    /// The previous recording run's process ended: a `RecorderEvent.runStarted` after earlier events.
    ///
    /// A trace file can hold several runs: when an app reopens its trace the Recorder appends `runStarted` and
    /// goes on (serials go on too, so a new run never reuses a serial). Nothing is recorded when a
    /// process is killed or crashes, so the start of the next run is the first sign that the previous process
    /// is gone, and with it every object it held. Here:
    /// - every controller still alive ends with its process: `processEndTime`/`processEndOrdinal` are set to the
    ///   `runStarted` event (its deinit never ran, so `deinitTime` stays `nil`), its callback stack is cleared,
    ///   and its serial joins `deadSerials` like a deallocated controller's (the record is kept among the
    ///   `retainedDeadLimit` most recent ends). Its other fields (appearance, resources, unsaved edits, links)
    ///   stay as the process left them: they say what was on screen and what was lost;
    /// - callbacks still executing are dropped (on every controller's stack, a deallocated one's included), with a `processEndedInCallback` diagnostic (the process ended
    ///   inside a callback: a crash, or a kill mid-callback);
    /// - in-flight transitions are dropped; the app and every scene go back to `unknown`, the window root and
    ///   the app-level resources, unsaved edits and unhosted SwiftUI views of the old process are cleared.
    mutating func endProcess(_ time: UInt64, _ ordinal: UInt64, nextProcess: String) {
        if !executing.isEmpty {
            let names = executing.map(describe)
            report(
                .processEndedInCallback, ordinal, time, executing.last.flatMap(controllerRef(of:)),
                "a new run started (\(nextProcess)) while the previous process was still inside \(names.joined(separator: " > ")): it ended mid-callback (crash or kill)"
            )
        }
        let alive = (0..<controllers.count).filter { controllers[at: $0].isAlive }.map { controllers.serial(at: $0) }.sorted()
        for serial in alive {
            if let position = controllers.position(of: serial) {
                controllers[at: position].processEndTime = time
                controllers[at: position].processEndOrdinal = ordinal
            }
            compactDead(serial)
        }
        // A controller already deallocated can still hold callbacks begun after its deinit (a reported anomaly,
        // `eventAfterDeinit`); they executed in this process too, so they end with it like `executing`'s.
        for position in 0..<controllers.count where !controllers[at: position].callbacks.isEmpty {
            controllers[at: position].callbacks.removeAll()
        }
        executing = []
        appCallbacks = []
        transitions = []
        app = .unknown
        scenes = [:]
        windowRoot = nil
        appResources = []
        appUnsaved = []
        unhostedSwiftUIViews = []
    }
}
