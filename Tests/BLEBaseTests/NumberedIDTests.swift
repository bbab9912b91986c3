import BLEBase
import Testing

/// Connection and device ids sort by their number, not their text (C2 before C10), and read back
/// only as a user types them.
@Suite struct NumberedIDTests {
    @Test func sortByNumberAndWriteLetterAndNumber() {
        let ids = [10, 2, 1].map { ConnectionID(number: $0) }
        #expect(ids.sorted().map(\.description) == ["C1", "C2", "C10"])
        #expect(ids.sorted().map(\.number) == [1, 2, 10])
        #expect([DeviceID(number: 12), DeviceID(number: 3)].sorted().map(\.description) == ["D3", "D12"])
    }

    /// What a user types after `--connection` or `--apply`: the letter (either case) and a number
    /// from 1, nothing else.
    @Test func readTheirOwnLetterOnly() {
        #expect(ConnectionID("C3") == ConnectionID(number: 3))
        #expect(ConnectionID("c12") == ConnectionID(number: 12))
        #expect(DeviceID("D2") == DeviceID(number: 2))
        #expect(DeviceID("d7") == DeviceID(number: 7))
        for text in ["", "C", "3", "C0", "C+3", "C-3", "C3x", "D3", "C٣", " C3"] {
            #expect(ConnectionID(text) == nil, "\(text)")
        }
        for text in ["D", "D0", "C2", "D2 ", "DD2"] {
            #expect(DeviceID(text) == nil, "\(text)")
        }
    }
}
