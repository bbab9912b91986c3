import AnalyzerTestSupport
import Foundation
import BLEBase
import BLECaptureFormats
import Testing

@Suite struct BtsnoopTests {
    /// A btsnoop file header (datalink as given) and one 24-byte record header + packet.
    static func file(datalink: UInt32 = 1002, records: [[UInt8]]) -> [UInt8] {
        [0x62, 0x74, 0x73, 0x6E, 0x6F, 0x6F, 0x70, 0x00,   // magic "btsnoop\0"
         0x00, 0x00, 0x00, 0x01]                          // version 1
            + withUnsafeBytes(of: datalink.bigEndian, Array.init)  // datalink
            + records.flatMap { $0 }
    }

    static func record(orig: UInt32, incl: UInt32, flags: UInt32, ts: UInt64, _ packet: [UInt8]) -> [UInt8] {
        withUnsafeBytes(of: orig.bigEndian, Array.init)       // orig_len
            + withUnsafeBytes(of: incl.bigEndian, Array.init) // incl_len
            + withUnsafeBytes(of: flags.bigEndian, Array.init) // flags
            + [0, 0, 0, 0]                                     // cum_drops
            + withUnsafeBytes(of: ts.bigEndian, Array.init)    // timestamp, µs since 0 AD
            + packet
    }

    static let epoch: UInt64 = 0x00dc_ddb3_0f2f_8000

    @Test func epochIsPinned() throws {
        let bytes = Self.file(records: [Self.record(orig: 4, incl: 4, flags: 0, ts: Self.epoch + 1_700_000_000_000_000,
                                                    [0x01, 0x03, 0x0C, 0x00])])  // H4 command: HCI_Reset
        let result = try Fixtures.read(bytes)
        #expect(result.records.map(\.timestampUs) == [1_700_000_000_000_000])
        #expect(result.records.map { Timestamp.iso8601(unixMicroseconds: $0.timestampUs) } == ["2023-11-14T22:13:20.000000Z"])
        #expect(result.records.map(\.kind) == [.hciCommand])
        #expect(result.records.map(\.payload) == [[0x03, 0x0C, 0x00]])
        #expect(result.records.map(\.originalLength) == [3])
    }

    /// Packet payloads are read in the input buffer, not copied out record by record.
    @Test func payloadsShareTheInputBuffer() throws {
        let bytes = Self.file(records: [
            Self.record(orig: 4, incl: 4, flags: 0, ts: Self.epoch, [0x01, 0x03, 0x0C, 0x00]),
            Self.record(orig: 3, incl: 3, flags: 1, ts: Self.epoch, [0x04, 0x0E, 0x00]),
        ])
        let path = Fixtures.temporaryFile(bytes, name: "shared.btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try CaptureFile.open(path)
        let first = try #require(reader.next())
        let second = try #require(reader.next())
        #expect(first.payload == [0x03, 0x0C, 0x00])
        #expect(second.payload == [0x0E, 0x00])
        // Both lie in the file's bytes, headers included.
        #expect(first.storage.count == bytes.count)
        #expect(first.storage == second.storage)
    }

    @Test(arguments: [
        (UInt32(0b00), RecordKind.aclData, Direction.sent),
        (0b01, .aclData, .received),
        (0b10, .hciCommand, .sent),
        (0b11, .hciEvent, .received),
    ])
    func h1FlagsGiveKindAndDirection(flags: UInt32, kind: RecordKind, direction: Direction) throws {
        let bytes = Self.file(datalink: 1001, records: [Self.record(orig: 2, incl: 2, flags: flags, ts: Self.epoch, [0xAA, 0xBB])])
        let result = try Fixtures.read(bytes)
        #expect(result.records.map(\.kind) == [kind])
        #expect(result.records.map(\.direction) == [direction])
        #expect(result.records.map(\.payload) == [[0xAA, 0xBB]])
        #expect(result.info.linkTypeDescription == "btsnoop datalink 1001 (H1)")
    }

    @Test(arguments: [
        (UInt16(0), RecordKind.control(name: "New Index", code: 0), Direction.unknown),
        (1, .control(name: "Delete Index", code: 1), .unknown),
        (2, .hciCommand, .sent), (3, .hciEvent, .received),
        (4, .aclData, .sent), (5, .aclData, .received),
        (6, .scoData, .sent), (7, .scoData, .received),
        (8, .control(name: "Open Index", code: 8), .unknown),
        (9, .control(name: "Close Index", code: 9), .unknown),
        (10, .control(name: "Index Info", code: 10), .unknown),
        (11, .control(name: "Vendor Diagnostic", code: 11), .unknown),
        (12, .note(.systemNote), .unknown), (13, .note(.userLogging), .unknown),
        (14, .control(name: "Control Open", code: 14), .unknown),
        (15, .control(name: "Control Close", code: 15), .unknown),
        (16, .control(name: "Control Command", code: 16), .unknown),
        (17, .control(name: "Control Event", code: 17), .unknown),
        (18, .isoData, .sent), (19, .isoData, .received),
        (0x00FE, .unknown(code: 0xFE), .unknown),
    ])
    func monitorOpcodeMapping(opcode: UInt16, kind: RecordKind, direction: Direction) throws {
        let flags = UInt32(3) << 16 | UInt32(opcode)   // adapter 3
        let bytes = Self.file(datalink: 2001, records: [Self.record(orig: 2, incl: 2, flags: flags, ts: Self.epoch, [0x41, 0x42])])
        let result = try Fixtures.read(bytes)
        #expect(result.records.map(\.kind) == [kind])
        #expect(result.records.map(\.direction) == [direction])
        #expect(result.records.map(\.adapter) == [3])
    }

    @Test func monitorUserLoggingBecomesIdentAndMessage() throws {
        let packet: [UInt8] = [0x06,                                   // priority: info
                               0x0B] + Array("bluetoothd\0".utf8)      // ident_len 11, ident with NUL
            + Array("Starting SDP server\0".utf8)                      // message
        let bytes = Self.file(datalink: 2001, records: [
            Self.record(orig: UInt32(packet.count), incl: UInt32(packet.count), flags: 0xFFFF_000D, ts: Self.epoch, packet),
        ])
        let result = try Fixtures.read(bytes)
        #expect(result.records.map { String(decoding: $0.payload, as: UTF8.self) } == ["bluetoothd: Starting SDP server"])
        #expect(result.records.map(\.originalLength) == ["bluetoothd: Starting SDP server".utf8.count])
    }

    @Test(arguments: [UInt32(1003), 1004, 2002, 7])
    func unsupportedDatalink(datalink: UInt32) {
        let error = Fixtures.openError(Self.file(datalink: datalink, records: []))
        #expect(error?.message == "unsupported btsnoop datalink \(datalink)")
    }

    @Test func unsupportedVersion() {
        var bytes = Self.file(records: [])
        bytes.replaceSubrange(8..<12, with: [0, 0, 0, 2])
        #expect(Fixtures.openError(bytes)?.message == "unsupported btsnoop version 2")
    }

    @Test func everyTruncatedFileHeader() {
        let header = Self.file(records: [])
        for length in 1..<16 {
            #expect(Fixtures.openError(Array(header.prefix(length)))?.message
                    == "file ends inside the btsnoop file header: \(length) of 16 bytes", "length \(length)")
        }
        #expect(Fixtures.openError([])?.message == "empty file: not a capture")
    }

    @Test func everyTruncatedRecord() throws {
        let first = Self.record(orig: 4, incl: 4, flags: 0, ts: Self.epoch, [0x01, 0x03, 0x0C, 0x00])
        let second = Self.record(orig: 7, incl: 7, flags: 1, ts: Self.epoch + 5, [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
        let whole = Self.file(records: [first, second])
        let secondOffset = 16 + first.count
        for length in 0..<second.count {
            let result = try Fixtures.read(Array(whole.prefix(secondOffset + length)))
            #expect(result.records.count == 1)
            let expected = length == 0 ? []
                : [length < 24 ? "file ends inside the record header: \(length) of 24 bytes"
                               : "file ends inside the record: \(length) of 31 bytes"]
            #expect(result.diagnostics.map(\.message) == expected, "length \(length)")
            #expect(result.diagnostics.allSatisfy {
                $0.kind == .truncatedFinalRecord && $0.severity == .warning && $0.recordNumber == 2 && $0.byteOffset == secondOffset
            })
        }
    }

    @Test(arguments: [
        (UInt32(10), UInt32(11), UInt32(1002)),   // incl_len > orig_len
        (300_000, 262_145, 1002),                 // above the 262144-byte cap
        (0, 0, 1002),                             // an H4 record without its type byte
    ])
    func impossibleIncludedLengthStops(orig: UInt32, incl: UInt32, datalink: UInt32) throws {
        let good = Self.record(orig: 4, incl: 4, flags: 0, ts: Self.epoch, [0x01, 0x03, 0x0C, 0x00])
        let bad = Self.record(orig: orig, incl: incl, flags: 0, ts: Self.epoch, [0x01, 0x02])
        let result = try Fixtures.read(Self.file(datalink: datalink, records: [good, bad, good]))
        #expect(result.records.count == 1)
        #expect(result.diagnostics.map(\.description) == [
            "\(result.info.path): record 2 at byte \(16 + good.count): impossible included length \(incl)",
        ])
        #expect(result.diagnostics.map(\.severity) == [.error])
    }

    @Test func unknownH4TypeIsKeptRaw() throws {
        let bytes = Self.file(records: [Self.record(orig: 3, incl: 3, flags: 0, ts: Self.epoch, [0x7F, 0xAB, 0xCD])])
        let result = try Fixtures.read(bytes)
        #expect(result.records.map(\.kind) == [.unknown(code: 0x7F)])
        #expect(result.records.map(\.payload) == [[0xAB, 0xCD]])
        #expect(H4PacketType(rawValue: 0x7F).name == "Unknown (0x7F)")
        #expect(MonitorOpcode(rawValue: 0x1234).name == "Unknown (0x1234)")
        #expect(BtsnoopDatalink(rawValue: 9).name == "Unknown (9)")
    }

    /// The monitor opcodes' names (BlueZ `src/shared/btsnoop.h`); `monitorOpcodeMapping` pins
    /// their records' kinds and directions.
    @Test func monitorOpcodeNames() {
        #expect([MonitorOpcode.aclRxPacket, .controlOpen, .commandPacket, .systemNote].map(\.name)
            == ["ACL RX", "Control Open", "Command", "System Note"])
    }
}
