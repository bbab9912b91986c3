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

    /// Every range of a view of a slice: inside, the same buffer's bytes from the range's start;
    /// outside, nil.
    @Test func subviewsOfEveryRange() throws {
        var reader = ByteReader(Self.bytes, range: 1..<6)
        try reader.skip(1)
        let view = reader.readRemainingView()   // 00 AA 01 02
        for lower in -1...5 {
            for upper in max(lower, -1)...5 {
                let sub = view.view(lower..<upper)
                if lower >= 0, upper <= 4 {
                    #expect(sub?.array == Array(Self.bytes[2 + lower..<2 + upper]))
                    #expect(sub?.isWholeBuffer == false)
                } else {
                    #expect(sub == nil)
                }
            }
        }
    }

    /// `compacted` copies a view of part of a buffer into one of its own, and keeps a whole one.
    @Test func compactedKeepsTheBytesAndNotTheBatch() throws {
        var reader = ByteReader(Self.bytes)
        try reader.skip(3)
        let part = reader.readRemainingView()
        #expect(!part.isWholeBuffer)
        let compact = part.compacted
        #expect(compact.isWholeBuffer)
        #expect(compact == part)
        #expect(compact.array == [0xAA, 0x01, 0x02, 0x55])
        let whole = ByteView([0x01, 0x02])
        #expect(whole.isWholeBuffer)
        #expect(whole.compacted == whole)
        #expect(ByteReader.unsigned(in: part, at: 1, size: 2, bigEndian: true) == 0x0102)
        #expect(ByteReader.unsigned(in: part, at: 3, size: 2, bigEndian: true) == nil)
    }
}
