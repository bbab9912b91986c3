import BLEBase
@testable import BLECaptureFormats
import Testing

/// The pcapng `bledecode annotate` writes (draft-ietf-opsawg-pcapng §3–4), byte for byte.
struct PcapngWriterTests {
    static func write(_ records: [(CaptureRecord, [String])]) -> [UInt8] {
        var bytes: [UInt8] = []
        var writer = PcapngWriter(application: "t") { bytes += $0 }
        for (record, comments) in records { writer.write(record, comments: comments) }
        return bytes
    }

    @Test func blocksAreLaidOutAsTheDraftSays() {
        let record = CaptureRecord(index: 1, timestampUs: 0x0000_0001_0000_0002, direction: .sent, kind: .aclData,
                                   payload: [0x40, 0x00, 0x00])
        let bytes = Self.write([(record, ["ab"])])
        // Section header: type, length 40, byte-order magic, version 1.0, section length unknown,
        // shb_userappl "t" (padded), end of options, length again.
        #expect(Array(bytes[0..<40]) == [0x0A, 0x0D, 0x0D, 0x0A, 40, 0, 0, 0, 0x4D, 0x3C, 0x2B, 0x1A, 1, 0, 0, 0,
                                         0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 4, 0, 1, 0, 0x74, 0, 0, 0,
                                         0, 0, 0, 0, 40, 0, 0, 0])
        // Interface description: link type 201, snaplen 0.
        #expect(Array(bytes[40..<60]) == [1, 0, 0, 0, 20, 0, 0, 0, 201, 0, 0, 0, 0, 0, 0, 0, 20, 0, 0, 0])
        // Enhanced packet: interface 0, time high/low, 8 bytes captured and original (direction
        // pseudo-header 0 = sent, H4 type 2 = ACL, payload), epb_flags outbound, opt_comment "ab".
        #expect(Array(bytes[60...]) == [6, 0, 0, 0, 60, 0, 0, 0,
                                        0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0,
                                        0, 0, 0, 0, 2, 0x40, 0x00, 0x00,
                                        2, 0, 4, 0, 2, 0, 0, 0,
                                        1, 0, 2, 0, 0x61, 0x62, 0, 0,
                                        0, 0, 0, 0,
                                        60, 0, 0, 0])
    }

    /// Air records keep their link type and bytes; a note becomes a monitor System Note; each
    /// link type gets one interface, described before its first packet.
    @Test func linkTypesAndNotes() {
        let air = CaptureRecord(index: 1, timestampUs: 0, direction: .centralToPeripheral, kind: .linkLayer(linkType: 256),
                                payload: [1, 2, 3])
        let note = CaptureRecord(index: 2, timestampUs: 0, direction: .unknown, kind: .note(.syslog), payload: Array("hi".utf8))
        let air2 = CaptureRecord(index: 3, timestampUs: 0, direction: .centralToPeripheral, kind: .linkLayer(linkType: 256),
                                 payload: [4])
        #expect(PcapngWriter.packet(air) == (256, [1, 2, 3]))
        #expect(PcapngWriter.packet(note) == (254, [0, 0, 0, 12, 0x68, 0x69, 0]))
        let bytes = Self.write([(air, []), (note, []), (air2, [])])
        let types = Self.blockTypes(bytes)
        #expect(types == [0x0A0D_0D0A, 1, 6, 1, 6, 6])
    }

    /// A comment is cut at a character boundary, never inside one.
    @Test func commentsAreCutAtCharacters() {
        #expect(PcapngWriter.utf8("aé", limit: 2) == [0x61])
        #expect(PcapngWriter.utf8("aé", limit: 3) == [0x61, 0xC3, 0xA9])
    }

    static func blockTypes(_ bytes: [UInt8]) -> [UInt32] {
        var types: [UInt32] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            let type = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
            let length = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8
            types.append(type)
            offset += max(length, 12)
        }
        return types
    }
}
