import LifetraceCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

signal(SIGPIPE, SIG_IGN)
let streams = StandardStreams()
let output = CommandOutput(standardOutput: streams.writeOut, standardError: streams.writeError)
var code = Lifetrace.run(arguments: Array(CommandLine.arguments.dropFirst()), output: output)
streams.flush()
// Output that could not be written (a full disk behind '> file') is not a success.
if let message = streams.outputFailureMessage {
    streams.writeError(message + "\n")
    code = .usageOrInput
}
exit(code.rawValue)
