import Dispatch

/// Two stages of a streaming job overlapped on two threads: while `consume` takes batch k, `produce` makes batch
/// k + 1. Each stage runs its batches in order and keeps its own state, so the two closures must share nothing
/// mutable (a batch is handed from one to the other whole). At most two batches exist at a time.
enum TwoStagePipeline {
    /// Runs until `produce` returns `nil` (after every batch was consumed) or `consume` returns `false` (the batch
    /// produced meanwhile is dropped).
    ///
    /// - Throws: The first error in input order: `consume`'s error for batch k comes before `produce`'s for
    ///   batch k + 1.
    static func run<Batch>(produce: () throws -> Batch?, consume: (Batch) throws -> Bool) throws {
        try withoutActuallyEscaping(produce) { produce in
            try withoutActuallyEscaping(consume) { consume in
                try Steps(produce: produce, consume: consume).run()
            }
        }
    }

    /// The two stages and what one step of each gave. `@unchecked Sendable`: in a step, each of the two
    /// `concurrentPerform` iterations calls only its own stage and writes only its own result, and both are read
    /// after the step has ended; the stages share no state (see `run`).
    private final class Steps<Batch>: @unchecked Sendable {
        let produce: () throws -> Batch?
        let consume: (Batch) throws -> Bool
        /// The batch the step consumes.
        var taken: Batch?
        var produced: Result<Batch?, any Error> = .success(nil)
        var consumed: Result<Bool, any Error> = .success(true)

        init(produce: @escaping () throws -> Batch?, consume: @escaping (Batch) throws -> Bool) {
            self.produce = produce
            self.consume = consume
        }

        func run() throws {
            taken = try produce()
            while taken != nil {
                DispatchQueue.concurrentPerform(iterations: 2) { stage in
                    if stage == 0 {
                        self.produced = Result { try self.produce() }
                    } else {
                        self.consumed = Result { try self.taken.map(self.consume) ?? true }
                    }
                }
                guard try consumed.get() else { return }
                taken = try produced.get()
            }
        }
    }
}
