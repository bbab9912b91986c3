import BLEBase
import Testing

/// Connection ids sort by their number, not their text: C2 before C10.
@Suite struct ConnectionIDTests {
    @Test func sortByNumberAndReadCn() {
        let ids = [10, 2, 1].map { ConnectionID(number: $0) }
        #expect(ids.sorted().map(\.description) == ["C1", "C2", "C10"])
        #expect(ids.sorted().map(\.number) == [1, 2, 10])
    }

    /// What a user types after `--connection`: `C3` or `c3`, nothing else.
    @Test func readsCnAsTyped() {
        #expect(ConnectionID("C3") == ConnectionID(number: 3))
        #expect(ConnectionID("c12") == ConnectionID(number: 12))
        for text in ["", "C", "3", "C0", "C+3", "C-3", "C3x", "D3", "C٣", " C3"] {
            #expect(ConnectionID(text) == nil, "\(text)")
        }
    }
}
