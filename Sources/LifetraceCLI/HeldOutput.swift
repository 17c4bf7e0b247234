/// A `CommandOutput` whose standard output is held back until a condition holds (or `release()`), then passed on
/// to another output, what was held first; `discard()` drops what is held and passes nothing more.
///
/// `lifetrace events --controller NAME` lists through one: until every name has named a controller, the listing
/// may have to be made again with loosely matched names (`LooseControllerMatch`), and what the first one printed
/// must then not have reached standard output. Standard error passes straight through.
final class HeldOutput: @unchecked Sendable {
    private let target: CommandOutput
    private let isReleased: () -> Bool
    private var buffer = ""
    private var passing = false
    private var discarded = false

    /// The output to write to. Text is escaped (`isHumanReadable`, as `target`'s) when written here, and passed on
    /// exactly.
    private(set) var output: CommandOutput!

    init(_ target: CommandOutput, releasedWhen isReleased: @escaping () -> Bool) {
        self.target = target
        self.isReleased = isReleased
        output = CommandOutput(
            standardOutput: { [unowned self] in self.receive($0) },
            standardError: { target.write(toStandardError: $0) },
            isStandardOutputClosed: { target.isStandardOutputClosed },
            environment: target.environment,
            isStandardOutputTerminal: target.isStandardOutputTerminal,
            isStandardErrorTerminal: target.isStandardErrorTerminal)
        output.isHumanReadable = target.isHumanReadable
    }

    private func receive(_ text: String) {
        guard !discarded else { return }
        if !passing, isReleased() { release() }
        if passing { target.write(escaped: text) } else { buffer += text }
    }

    /// Passes on what is held, and everything written from now on.
    func release() {
        guard !discarded else { return }
        passing = true
        if !buffer.isEmpty { target.write(escaped: buffer) }
        buffer = ""
    }

    /// Drops what is held; nothing written from now on is passed on.
    func discard() {
        discarded = true
        buffer = ""
    }
}
