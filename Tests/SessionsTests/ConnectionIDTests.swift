import Sessions
import Testing

/// Connection ids sort by their number, not their text: C2 before C10.
@Suite struct ConnectionIDTests {
    @Test func sortByNumberAndReadCn() {
        let ids = [10, 2, 1].map { ConnectionID(number: $0) }
        #expect(ids.sorted().map(\.description) == ["C1", "C2", "C10"])
        #expect(ids.sorted().map(\.number) == [1, 2, 10])
    }
}
