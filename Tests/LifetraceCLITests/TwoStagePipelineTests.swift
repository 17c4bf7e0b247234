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
        // Producing batch k + 1 waits (up to a second) for consuming batch k to begin: run one after the other on
        // one thread, every wait would time out. One overlap in 20 steps is enough (a busy machine may give the
        // second thread late).
        let steps = 20
        let consuming = (0...steps).map { _ in DispatchSemaphore(value: 0) }
        var made = 0
        var overlaps = 0
        try TwoStagePipeline.run(
            produce: {
                made += 1
                if made > 1, overlaps == 0, consuming[made - 1].wait(timeout: .now() + 1) == .success { overlaps += 1 }
                return made <= steps ? made : nil
            },
            consume: { batch in
                consuming[batch].signal()
                return true
            })
        #expect(overlaps == 1)
    }
}
