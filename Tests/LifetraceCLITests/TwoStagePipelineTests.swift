import Dispatch
import Foundation
import Testing

@testable import LifetraceCLI

@Suite("two-stage pipeline: batches in order, the first error in input order, the stages overlapped")
struct TwoStagePipelineTests {
    private struct Failure: Error, Equatable {
        var stage: String
        var batch: Int
    }

    @Test("every batch produced is consumed once, in order, and produce is not called after it returned nil")
    func inOrder() throws {
        var calls = 0
        var taken: [Int] = []
        try TwoStagePipeline.run(
            produce: {
                calls += 1
                return calls <= 5 ? calls : nil
            },
            consume: { taken.append($0); return true })
        #expect(taken == [1, 2, 3, 4, 5])
        #expect(calls == 6)
    }

    @Test("consume returning false stops the run: the batch produced meanwhile is not consumed")
    func stops() throws {
        var made = 0
        var taken: [Int] = []
        try TwoStagePipeline.run(
            produce: { made += 1; return made },
            consume: { taken.append($0); return $0 < 3 })
        #expect(taken == [1, 2, 3])
        #expect(made == 4)
    }

    @Test("consume's error for batch k wins over produce's for batch k + 1")
    func errorOrder() {
        var made = 0
        #expect(throws: Failure(stage: "consume", batch: 2)) {
            try TwoStagePipeline.run(
                produce: {
                    made += 1
                    if made == 3 { throw Failure(stage: "produce", batch: 3) }
                    return made
                },
                consume: { batch in
                    if batch == 2 { throw Failure(stage: "consume", batch: 2) }
                    return true
                })
        }
        #expect(throws: Failure(stage: "produce", batch: 1)) {
            try TwoStagePipeline.run(produce: { () throws -> Int? in throw Failure(stage: "produce", batch: 1) }, consume: { _ in true })
        }
    }

    @Test(
        "batch k + 1 is produced while batch k is consumed (on a machine with two or more cores)",
        .enabled(if: ProcessInfo.processInfo.activeProcessorCount >= 2))
    func overlapped() throws {
        // Producing batch 2 waits until consuming batch 1 has begun: run one after the other, it would time out.
        let consuming = DispatchSemaphore(value: 0)
        var made = 0
        var waits: [DispatchTimeoutResult] = []
        try TwoStagePipeline.run(
            produce: {
                made += 1
                if made == 2 { waits.append(consuming.wait(timeout: .now() + 10)) }
                return made <= 2 ? made : nil
            },
            consume: { batch in
                if batch == 1 { consuming.signal() }
                return true
            })
        #expect(waits == [.success])
    }
}
