import Testing
@testable import BLEBase

/// `ArrayDrain.all` and `ArrayDrain.first` hand each element over once, in order, moved out rather than
/// copied: the array lets go of each one as its turn ends, not all of them at the end.
struct ArrayDrainTests {
    final class Log { var lines: [String] = [] }

    final class Box {
        let value: Int
        let log: Log
        init(_ value: Int, log: Log) { (self.value, self.log) = (value, log) }
        deinit { log.lines.append("free \(value)") }
    }

    @Test func drainsEveryElementInOrderLettingEachGo() {
        let log = Log()
        var boxes = (1...3).map { Box($0, log: log) }
        let capacity = boxes.capacity
        ArrayDrain.all(&boxes) { log.lines.append("see \($0.value)") }
        #expect(log.lines == ["see 1", "free 1", "see 2", "free 2", "see 3", "free 3"])
        #expect(boxes.isEmpty)
        #expect(boxes.capacity == capacity)
    }

    /// Every count from 0 to 20 and every `k`: the first `k` handed over in order, each let go
    /// as its turn ends; the rest kept in order, and the capacity.
    @Test func drainFirstHandsOverThePrefixAndKeepsTheRest() {
        for count in 0...20 {
            for k in 0...count {
                let log = Log()
                var boxes = (0..<count).map { Box($0 + 1, log: log) }
                let capacity = boxes.capacity
                ArrayDrain.first(k, of: &boxes) { log.lines.append("see \($0.value)") }
                #expect(log.lines == (1..<k + 1).flatMap { ["see \($0)", "free \($0)"] }, "count \(count), k \(k)")
                #expect(boxes.map(\.value) == Array(k + 1..<count + 1), "count \(count), k \(k)")
                #expect(boxes.capacity == capacity, "count \(count), k \(k)")
            }
        }
    }

    /// Every count from 0 to 20 (both sides of the one-by-one limit) and every `k`: the rest in
    /// order, every removed element let go, the capacity kept.
    @Test func removeFirstFewLeavesTheRestAndTheCapacity() {
        for count in 0...20 {
            for k in 0...count {
                let log = Log()
                var boxes = (1...max(count, 1)).prefix(count).map { Box($0, log: log) }
                let capacity = boxes.capacity
                ArrayDrain.removeFirst(k, of: &boxes)
                #expect(boxes.map(\.value) == Array((1...max(count, 1)).prefix(count).dropFirst(k)), "count \(count), k \(k)")
                #expect(log.lines.sorted() == (1...max(k, 1)).prefix(k).map { "free \($0)" }.sorted(), "count \(count), k \(k)")
                if k == count { #expect(boxes.capacity == capacity, "count \(count)") }
            }
        }
    }
}
