import TraceModel

/// The simulated clock and screen.
///
/// Times are nanoseconds. Every recorded event takes one `tick`, so a callback's interval is never empty and
/// the events of one step have distinct, increasing timestamps.
public struct SimulationOptions: Sendable, Hashable {
    /// Time each recorded event takes (default 100 µs).
    public var tick: UInt64
    /// Duration of an animated push, pop, present, dismiss or rotation (default 350 ms; UIKit's navigation
    /// transition is about 0.35 s).
    public var animationDuration: UInt64
    /// Time from the finger lifting (an interactive transition finished or cancelled) to the did-callbacks
    /// (default 120 ms).
    public var completionDuration: UInt64
    /// The window's size in points (default 390×844, an iPhone in portrait).
    public var windowSize: Size
    /// The bounds a freshly loaded view has before it is in the window (default 375×667, Interface Builder's
    /// default): what `view.bounds` reads in viewDidLoad and in a first viewWillAppear.
    public var designSize: Size

    public init(
        tick: UInt64 = 100_000,
        animationDuration: UInt64 = 350_000_000,
        completionDuration: UInt64 = 120_000_000,
        windowSize: Size = Size(width: 390, height: 844),
        designSize: Size = Size(width: 375, height: 667)
    ) {
        self.tick = tick
        self.animationDuration = animationDuration
        self.completionDuration = completionDuration
        self.windowSize = windowSize
        self.designSize = designSize
    }
}
