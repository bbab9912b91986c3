import Testing
import BLEBase

/// `SortedMap` finds what a dictionary would, whatever the order keys came in.
struct SortedMapTests {
    @Test func findsEveryCodeAndNothingElse() {
        let names = [0x20: "READ_LOG", 0x01: "GET_INFO", 0x11: "LOCK", 0x10: "UNLOCK", -3: "NEGATIVE"]
        let map = SortedMap(names)
        #expect(map.count == 5)
        for code in -5...0x30 { #expect(map[code] == names[code], "code \(code)") }
    }

    @Test func setAddsInPlaceAndReplaces() {
        var map = SortedMap<Int, String?>()
        for code in [7, 3, 9, 3, 1] { map.set(code == 9 ? nil : "c\(code)", for: code) }
        #expect(map.count == 4)
        #expect(map[1] == .some("c1") && map[3] == .some("c3") && map[7] == .some("c7"))
        #expect(map[9] == .some(nil))   // remembered as having no name
        #expect(map[2] == nil && map[8] == nil && map[10] == nil)
    }
}
