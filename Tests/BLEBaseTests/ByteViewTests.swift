import BLEBase
import Testing

/// `ByteView`: bytes read in place, indexed from 0, compared and hashed by content.
struct ByteViewTests {
    static let bytes: [UInt8] = [0x12, 0x03, 0x00, 0xAA, 0x01, 0x02, 0x55]

    @Test(arguments: 0...7)
    func readRemainingViewFromEveryPosition(start: Int) throws {
        var reader = ByteReader(Self.bytes)
        try reader.skip(start)
        let view = reader.readRemainingView()
        #expect(reader.isAtEnd)
        #expect(view.count == 7 - start)
        #expect(view.startIndex == 0)
        #expect(view.endIndex == 7 - start)
        #expect(view.array == Array(Self.bytes[start...]))
        #expect(Array(view) == Array(Self.bytes[start...]))
        for i in view.indices { #expect(view[i] == Self.bytes[start + i]) }
        #expect(view.withUnsafeBufferPointer { Array($0) } == Array(Self.bytes[start...]))
    }

    @Test func aViewOfASliceReadsOnlyItsRange() throws {
        var reader = ByteReader(Self.bytes, range: 1..<5)
        try reader.skip(1)
        let view = reader.readRemainingView()
        #expect(view == [0x00, 0xAA, 0x01])
        #expect(view.first == 0x00)
        #expect(view.last == 0x01)
        #expect(view.description == "[0, 170, 1]")
    }

    @Test func equalBytesAreEqualWhateverTheirBuffer() throws {
        var reader = ByteReader([0xFF, 0x01, 0x02])
        try reader.skip(1)
        let inPlace = reader.readRemainingView()
        let own = ByteView([0x01, 0x02])
        #expect(inPlace == own)
        #expect(inPlace.hashValue == own.hashValue)
        #expect(Set([inPlace, own]).count == 1)
        #expect(inPlace != [0x01, 0x03])
        #expect(inPlace != [0x01])
        #expect(ByteView([]) == [])
        #expect(ByteView([]).isEmpty)
    }
}
