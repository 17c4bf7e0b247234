import LifetraceTestSupport
import Testing

@testable import Audit
import TraceModel

/// `SerialTable` and `PlainStack` (the rules' manually allocated storage) behave as a `Dictionary` and an `Array`
/// under random operations, through growth and shrinking; and `appearance_balance`'s legal-step bits agree with
/// its problem texts.
@Suite("Plain storage")
struct PlainStorageTests {
    @Test("SerialTable matches a Dictionary under random operations", arguments: [UInt64(1), 2, 3])
    func serialTable(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var table = SerialTable<Int>()
        var reference: [UInt32: Int] = [:]
        // Few distinct keys (collisions, reinsertion after removal), some far apart, and runs of many keys (growth),
        // then of removals (shrinking).
        func key() -> UInt32 {
            generator.next() % 4 == 0 ? UInt32(truncatingIfNeeded: generator.next()) : UInt32(generator.next() % 300)
        }
        for step in 0..<30_000 {
            let k = key()
            switch generator.next() % 7 {
            case 0, 1:
                table.set(k, step)
                reference[k] = step
            case 2, 3:
                table.remove(k)
                reference[k] = nil
            case 4:
                let bucket = table.bucket(of: k, inserting: -1)
                if reference[k] == nil { reference[k] = -1 }
                let stored = table[bucket: bucket]
                #expect(stored == reference[k])
                table[bucket: bucket] += 1
                reference[k]! += 1
            default:
                let value = table[k]
                let found = table.bucket(of: k) != nil
                #expect(value == reference[k])
                #expect(found == (reference[k] != nil))
            }
            if step % 10_000 == 9_999 {
                for k in reference.keys { table.remove(k) }
                reference.removeAll()
                let isEmpty = table.isEmpty
                #expect(isEmpty)
            }
            let count = table.count
            #expect(count == reference.count)
        }
        for (k, v) in reference {
            let value = table[k]
            #expect(value == v)
        }
        table.removeAll()
        let isEmpty = table.isEmpty
        #expect(isEmpty)
        for (k, _) in reference {
            let value = table[k]
            #expect(value == nil)
        }
    }

    @Test("PlainStack matches an Array under random operations", arguments: [UInt64(4), 5])
    func plainStack(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var stack = PlainStack<UInt64>(capacity: 2)
        var reference: [UInt64] = []
        for _ in 0..<20_000 {
            switch generator.next() % 6 {
            case 0, 1, 2:
                let value = generator.next()
                stack.append(value)
                reference.append(value)
            case 3:
                if !reference.isEmpty {
                    let last = stack.removeLast()
                    #expect(last == reference.removeLast())
                }
            case 4:
                if !reference.isEmpty {
                    let index = Int(generator.next() % UInt64(reference.count))
                    let removed = stack.remove(at: index)
                    #expect(removed == reference.remove(at: index))
                }
            default:
                if !reference.isEmpty {
                    let index = Int(generator.next() % UInt64(reference.count))
                    stack[index] &+= 1
                    reference[index] &+= 1
                    let bit = generator.next() & 1
                    let found = stack.lastIndex { $0 & 1 == bit }
                    #expect(found == reference.lastIndex { $0 & 1 == bit })
                }
            }
            let count = stack.count
            #expect(count == reference.count)
        }
        for index in reference.indices {
            let value = stack[index]
            #expect(value == reference[index])
        }
        stack.removeAll()
        let isEmpty = stack.isEmpty
        #expect(isEmpty)
    }

    @Test("appearance_balance: a step is legal by the bits exactly when it has no problem text")
    func appearanceLegalBits() {
        typealias Monitor = AppearanceBalanceMonitor
        for callback in [Callback.viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear] {
            for state in Monitor.State.allCases {
                let tracked = Monitor.Tracked(state)
                #expect(tracked.state == state)
                let legal = Monitor.legalCodes(callback) >> tracked.code & 1 == 1
                #expect(legal == (Monitor.problem(callback, state) == nil), "\(callback) in \(state)")
            }
            // A controller first seen at an appearance callback (code 0) is in the unknown state: every step is legal.
            #expect(Monitor.legalCodes(callback) & 1 == 1)
        }
    }
}

/// `expensive_layout`'s frames and `work` details (flat lists by frame ordinal): an outer frame that ends before a
/// frame nested in it, `work` intervals of two frames open at once, and a frame with a source.
@Suite("expensive_layout frames")
struct ExpensiveLayoutFrameTests {
    @Test("the outer frame ending first keeps its work and source; the inner one its own work")
    func outerEndsFirst() throws {
        let outer = ExampleTrace.controller(1, "OuterViewController")
        let inner = ExampleTrace.controller(2, "InnerViewController")
        func work(_ phase: Phase, _ controller: ControllerRef, _ label: String) -> MarkEvent {
            MarkEvent(MarkName.work, phase, controller: controller, fields: [MarkField("label", .string(label))])
        }
        var trace = ExampleTrace()
        trace.step = 1_000_000
        trace.callback(.viewDidLayoutSubviews, outer, .begin)
        trace.mark(work(.begin, outer, "outer-a"))
        trace.wait(0.002)
        trace.mark(work(.end, outer, "outer-a"))
        trace.callback(.viewWillLayoutSubviews, inner, .begin)
        trace.mark(work(.begin, inner, "inner-a"))
        trace.mark(work(.begin, outer, "outer-b"))
        trace.wait(0.020)
        trace.mark(work(.end, outer, "outer-b"))
        trace.callback(.viewDidLayoutSubviews, outer, .end)
        trace.wait(0.015)
        trace.mark(work(.end, inner, "inner-a"))
        trace.callback(.viewWillLayoutSubviews, inner, .end)
        var events = trace.events
        let source = EventSource(text: "layout", file: "Outer.swift", line: 12)
        events[0].source = source
        let findings = try Auditor(configuration: AuditConfiguration(optInRules: [ExpensiveLayoutRule.id])).audit(events)
            .filter { $0.ruleID == ExpensiveLayoutRule.id }
        #expect(findings.count == 2)
        let outerFinding = try #require(findings.first { $0.controller == outer.displayName })
        #expect(outerFinding.message.contains("of it in work 'outer-b'"), "\(outerFinding.message)")
        #expect(outerFinding.source == source)
        let innerFinding = try #require(findings.first { $0.controller == inner.displayName })
        #expect(innerFinding.message.contains("of it in work 'inner-a'"), "\(innerFinding.message)")
        #expect(innerFinding.source == nil)
    }
}
