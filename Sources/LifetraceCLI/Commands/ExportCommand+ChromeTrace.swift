import Audit
import TraceLog
import TraceModel
import TraceViews

extension ExportCommand {
    /// `export --format chrome-trace`: streams the trace through a `ChromeTraceWriter` (and, with an auditor, an
    /// audit session in the same pass, whose findings go on the findings thread).
    static func exportChromeTrace(
        _ input: TraceInput, auditor: Auditor?, to outputPath: String?, damage: ExitCode, output: CommandOutput
    ) throws -> ExitCode {
        let session = auditor?.makeSession()
        func convert(_ sink: @escaping ([UInt8]) throws -> Void, until isAbandoned: () -> Bool) throws -> (ChromeTraceWriter.Summary, TraceInput.Stop?) {
            var writer = try ChromeTraceWriter(header: try input.header(), sink: sink)
            let stop = try input.scan(fromOffset: nil) { ordinal, event, _ in
                if isAbandoned() { return false }
                try writer.write(event, ordinal: ordinal)
                session?.observe(event, ordinal: ordinal)
                return true
            }
            let summary = try writer.finish(findings: session?.finish() ?? [])
            return (summary, stop)
        }
        guard let outputPath, outputPath != "-" else {
            let (_, stop) = try convert({ bytes in output.write(String(decoding: bytes, as: UTF8.self)) }, until: { output.isStandardOutputClosed })
            return finish(damage, stop, output: output)
        }
        let file = try OutputFile(path: outputPath)
        file.removeStaleTemporaries(command: "export", output: output)
        let result: (ChromeTraceWriter.Summary, TraceInput.Stop?)
        do {
            result = try convert({ bytes in try file.write(bytes) }, until: { false })
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
        let (summary, stop) = result
        let prefix = stop == nil ? "" : "the readable prefix: "
        output.line(
            "exported \(prefix)\(summary.events) events to \(outputPath.displayEscaped) (\(summary.bytes) bytes, chrome-trace): "
                + "\(summary.controllers) controllers, \(summary.callbacks) callback slices, \(summary.appearanceSpans) appearance slices "
                + "(\(summary.cancelledSpans) cancelled), \(summary.marks) marks, \(summary.flows) transition flows, \(summary.findings) findings")
        return finish(damage, stop, output: output)
    }
}
