@testable import BLEBase
import Testing

@Suite struct ByteReaderTests {
    @Test func readsIntegersInStatedOrder() throws {
        var r = ByteReader([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0xFF], layer: .att, baseOffset: 100)
        #expect(try r.readUInt16LE() == 0x0201)
        #expect(try r.readUInt16BE() == 0x0304)
        #expect(try r.readUInt24LE() == 0x07_0605)
        #expect(r.reportedOffset == 107 && r.remaining == 2)
        #expect(try r.peekUInt8() == 0x08)
        #expect(try r.readUInt8() == 0x08)
        #expect(try r.readInt8() == -1)
        #expect(r.isAtEnd)
        var wide = ByteReader([1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(try wide.readUInt64LE() == 0x0807_0605_0403_0201)
        #expect(try wide.readUInt64BE() == 0x0102_0304_0506_0708)
        var words = ByteReader([1, 2, 3, 4, 1, 2, 3, 4])
        #expect(try words.readUInt32LE() == 0x0403_0201 && (try words.readUInt32BE()) == 0x0102_0304)
    }

    @Test func everyTruncationCarriesFieldOffsetAndCounts() {
        for width in 1...8 {
            for present in 0..<width {
                var r = ByteReader(Array(repeating: 0xAA, count: present), layer: .l2cap, baseOffset: 10)
                #expect(throws: DecodeError.truncated(layer: .l2cap, field: "value", at: 10, needed: width, available: present)) {
                    _ = try r.readUnsigned(width, bigEndian: false, field: "value")
                }
            }
        }
        var empty = ByteReader([], layer: .hci)
        #expect(throws: DecodeError.truncated(layer: .hci, field: "byte", at: 0, needed: 1, available: 0)) { try empty.peekUInt8() }
        #expect(throws: DecodeError.truncated(layer: .hci, field: "bytes", at: 0, needed: 1, available: 0)) {
            _ = try empty.readBytes(1)
        }
        #expect(throws: DecodeError.truncated(layer: .hci, field: "skipped bytes", at: 0, needed: 2, available: 0)) {
            try empty.skip(2)
        }
    }

    @Test func rejectsImpossibleWidthsAndNegativeLengths() {
        var r = ByteReader([1, 2, 3], layer: .att)
        #expect(throws: DecodeError.invalid(layer: .att, field: "integer", at: 0, reason: "integer width 9 outside 1...8")) {
            _ = try r.readUnsigned(9, bigEndian: true)
        }
        #expect(throws: DecodeError.invalid(layer: .att, field: "bytes", at: 0, reason: "negative length -1")) {
            _ = try r.readBytes(-1)
        }
        #expect(throws: DecodeError.invalid(layer: .att, field: "skipped bytes", at: 0, reason: "negative length -2")) {
            try r.skip(-2)
        }
        #expect(throws: DecodeError.invalid(layer: .att, field: "length-delimited field", at: 0, reason: "negative length -3")) {
            _ = try r.slice(byteCount: -3)
        }
    }

    @Test func skipRemainingMovesToTheEndOfItsRangeOnly() throws {
        var reader = ByteReader([0xB0, 0xB1, 0xB2, 0xB3], range: 1..<3, layer: .hci, baseOffset: 10)
        try reader.skip(1)
        reader.skipRemaining()
        #expect(reader.isAtEnd && reader.remaining == 0 && reader.reportedOffset == 13)
        reader.skipRemaining()
        #expect(reader.reportedOffset == 13)
    }

    @Test func rewindReadsTheSameBytesAgainWithTheSameOffsets() throws {
        var reader = ByteReader([0xB0, 0xB1, 0xB2, 0xB3], range: 1..<4, layer: .acl, baseOffset: 10)
        let start = reader.position
        #expect(try reader.readUInt16LE() == 0xB2B1)
        reader.rewind(to: start)
        #expect(reader.position == 1 && reader.reportedOffset == 11 && reader.remaining == 3)
        #expect(try reader.readBytes(3) == [0xB1, 0xB2, 0xB3])
        #expect(throws: DecodeError.truncated(layer: .acl, field: "byte", at: 14, needed: 1, available: 0)) {
            _ = try reader.readUInt8()
        }
    }

    @Test func rebaseReportsOffsetsFromTheUnreadBytes() throws {
        var reader = ByteReader([0xC0, 0xC1, 0xC2], layer: .acl, baseOffset: 40)
        try reader.skip(1)
        reader.rebase(layer: .l2cap)
        #expect(reader.layer == .l2cap && reader.reportedOffset == 0 && Array(reader.unreadBytes) == [0xC1, 0xC2])
        #expect(throws: DecodeError.truncated(layer: .l2cap, field: "u32", at: 0, needed: 4, available: 2)) {
            _ = try reader.readUInt32LE()
        }
    }

    @Test func slicesShareStorageAndKeepAbsoluteOffsets() throws {
        var outer = ByteReader([0xA0, 0xA1, 0xA2, 0xA3, 0xA4], layer: .acl, baseOffset: 24)
        try outer.skip(1)
        var inner = try outer.slice(byteCount: 3, layer: .l2cap)
        #expect(outer.reportedOffset == 28 && outer.remaining == 1)
        #expect(inner.layer == .l2cap && inner.reportedOffset == 25 && Array(inner.unreadBytes) == [0xA1, 0xA2, 0xA3])
        #expect(try inner.readBytes(2) == [0xA1, 0xA2])
        #expect(throws: DecodeError.truncated(layer: .l2cap, field: "u16", at: 27, needed: 2, available: 1)) {
            _ = try inner.readUInt16LE()
        }
        #expect(throws: DecodeError.leftover(layer: .l2cap, structure: "PDU", at: 27, count: 1)) { try inner.expectEnd("PDU") }
        #expect(throws: DecodeError.truncated(layer: .acl, field: "length-delimited field", at: 28, needed: 2, available: 1)) {
            _ = try outer.slice(byteCount: 2)
        }
        var rest = outer.sliceRemaining()
        #expect(outer.isAtEnd && rest.readRemainingBytes() == [0xA4] && rest.isAtEnd)
        try rest.expectEnd("rest")
    }

    @Test func readerOverARangeIsClampedAndKeepsAbsoluteOffsets() throws {
        var r = ByteReader([0xA0, 0xA1, 0xA2, 0xA3, 0xA4], range: 1..<3, layer: .capture, baseOffset: 100)
        #expect(r.position == 1 && r.reportedOffset == 101 && Array(r.unreadBytes) == [0xA1, 0xA2])
        #expect(try r.readUInt16BE() == 0xA1A2 && r.isAtEnd)
        #expect(throws: DecodeError.truncated(layer: .capture, field: "byte", at: 103, needed: 1, available: 0)) {
            _ = try r.readUInt8()
        }
        let clamped = ByteReader([1, 2, 3], range: 2..<9)
        #expect(Array(clamped.unreadBytes) == [3])
        #expect(ByteReader([1, 2, 3], range: 5..<9).isAtEnd)
    }

    @Test func parameterLengthAcceptsWhatCheckAccepts() {
        for rule in [ParameterLength.fixed(2), .atLeast(2)] {
            for count in 0...4 {
                let reader = ByteReader(Array(repeating: 0, count: count))
                #expect(rule.accepts(count) == ((try? rule.check(reader, structure: "PDU")) != nil))
            }
        }
    }

    @Test func errorDescriptions() {
        #expect(DecodeError.truncated(layer: .att, field: "handle", at: 7, needed: 2, available: 1).description
            == "att: handle truncated at byte 7: needs 2, 1 left")
        #expect(DecodeError.invalid(layer: .hci, field: "PB", at: 0, reason: "reserved").description == "hci: invalid PB at byte 0: reserved")
        #expect(DecodeError.leftover(layer: .l2cap, structure: "PDU", at: 3, count: 2).description
            == "l2cap: 2 unexpected byte(s) after PDU at byte 3")
        #expect(DecodeError.leftover(layer: .l2cap, structure: "PDU", at: 3, count: 2).offset == 3)
        #expect(DecodeError.invalid(layer: .smp, field: "x", at: 1, reason: "r").layer == .smp)
    }

    @Test func writerRoundTrips() throws {
        var w = ByteWriter()
        w.writeUInt8(1); w.writeInt8(-2); w.writeUInt16LE(0x0304); w.writeUInt16BE(0x0506); w.writeUInt24LE(0x09_0807)
        w.writeUInt32LE(0x0D0C_0B0A); w.writeUInt32BE(0x0E0F_1011); w.writeUInt64LE(1); w.writeUInt64BE(2)
        w.writeBytes([0xEE]); w.writeUInt16LE(0); w.patchUInt16LE(0xBEEF, at: w.count - 2)
        var r = ByteReader(w.bytes)
        #expect(try r.readUInt8() == 1 && (try r.readInt8()) == -2 && (try r.readUInt16LE()) == 0x0304)
        #expect(try r.readUInt16BE() == 0x0506 && (try r.readUInt24LE()) == 0x09_0807)
        #expect(try r.readUInt32LE() == 0x0D0C_0B0A && (try r.readUInt32BE()) == 0x0E0F_1011)
        #expect(try r.readUInt64LE() == 1 && (try r.readUInt64BE()) == 2)
        #expect(try r.readBytes(1) == [0xEE] && (try r.readUInt16LE()) == 0xBEEF && r.isAtEnd)
    }
}
