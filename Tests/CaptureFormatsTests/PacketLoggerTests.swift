import AnalyzerTestSupport
import BLECaptureFormats
import Testing

@Suite struct PacketLoggerTests {
    /// A big-endian record: len, secs, usecs, type, payload.
    static func record(type: UInt8, seconds: UInt32 = 1_714_011_124, micros: UInt32 = 378_596, _ payload: [UInt8],
                       length: UInt32? = nil) -> [UInt8] {
        withUnsafeBytes(of: (length ?? UInt32(9 + payload.count)).bigEndian, Array.init)  // len: bytes after itself
            + withUnsafeBytes(of: seconds.bigEndian, Array.init)                         // ts_secs
            + withUnsafeBytes(of: micros.bigEndian, Array.init)                          // ts_usecs
            + [type]                                                                     // type
            + payload
    }

    static let command = record(type: 0x00, [0x03, 0x0C, 0x00])                        // HCI_Reset
    static let event = record(type: 0x01, [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])        // Command Complete

    @Test func syslogBecomesOneLine() throws {
        let syslog: [UInt8] = [0x39, 0x30, 0x00, 0x00,            // pid 12345, little-endian
                               0x05]                              // message type
            + Array("bluetoothd\0".utf8)                          // process
            + Array("BlueTool\0".utf8)                            // sender
            + Array("com.apple.bluetooth\0".utf8)                 // subsystem
            + Array("Server.LE\0".utf8)                           // category
            + Array("Scan started\0".utf8)                        // message
        let result = try Fixtures.read(Self.command + Self.record(type: 0xF7, syslog))
        #expect(result.records.map(\.kind) == [.hciCommand, .note(.syslog)])
        #expect(result.records.last.map { String(decoding: $0.payload, as: UTF8.self) }
                == "bluetoothd[12345] BlueTool com.apple.bluetooth/Server.LE: Scan started")
    }

    @Test func everyTruncatedRecord() throws {
        let whole = Self.command + Self.event
        for length in 0..<Self.event.count {
            let result = try Fixtures.read(Array(whole.prefix(Self.command.count + length)))
            #expect(result.records.map(\.kind) == [.hciCommand])
            let expected = length == 0 ? []
                : [length < 13 ? "file ends inside the record header: \(length) of 13 bytes"
                               : "file ends inside the record: \(length) of \(Self.event.count) bytes"]
            #expect(result.diagnostics.map(\.message) == expected, "length \(length)")
            #expect(result.diagnostics.allSatisfy { $0.recordNumber == 2 && $0.byteOffset == Self.command.count })
        }
    }

    @Test func impossibleLengthResynchronises() throws {
        let garbage = Self.record(type: 0x02, [0xEE, 0xEE, 0xEE], length: 3)  // len 3 < 9: impossible
        let bytes = Self.command + Self.event + garbage + Self.event + Self.command
        let result = try Fixtures.read(bytes)
        #expect(result.records.map(\.kind) == [.hciCommand, .hciEvent, .hciEvent, .hciCommand])
        #expect(result.records.map(\.index) == [1, 2, 4, 5])
        let offset = Self.command.count + Self.event.count
        #expect(result.diagnostics.map(\.description) == [
            "\(result.info.path): record 3 at byte \(offset): impossible record length 3",
            "\(result.info.path) at byte \(offset): skipped \(garbage.count) byte(s) to the next plausible record header at byte \(offset + garbage.count)",
        ])
        #expect(result.diagnostics.map(\.kind) == [.impossibleLength, .resynchronised])
    }

    @Test func resynchronisationThatFindsNothing() throws {
        let bytes = Self.command + Self.event + [0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0xFF, count: 20)
        let result = try Fixtures.read(bytes)
        #expect(result.records.count == 2)
        #expect(result.diagnostics.map(\.message) == [
            "impossible record length 4294967295",
            "no plausible record header after this point: 24 byte(s) skipped to the end",
        ])
    }

    @Test func diagnosticsAreBounded() throws {
        // 150 records of an unknown type: 100 warnings listed, the rest counted.
        let unknown = Array((0..<150).map { _ in Self.record(type: 0x42, [0x01]) }.joined())
        let result = try Fixtures.read(Self.command + Self.event + unknown)
        #expect(result.records.count == 152)
        #expect(result.diagnostics.count == 101)
        #expect(result.diagnostics.last?.message == "50 more unknown-record-type diagnostic(s) not listed")
    }

    @Test func firstRecordsDecideTheByteOrder() throws {
        // Little-endian (v2): the same record with every u32 reversed.
        let littleEndian: [UInt8] = [0x0C, 0x00, 0x00, 0x00,   // len 12
                                     0xF4, 0xBB, 0x29, 0x66,   // ts_secs
                                     0xE4, 0xC6, 0x05, 0x00,   // ts_usecs
                                     0x00,                     // type: HCI command
                                     0x03, 0x0C, 0x00]         // HCI_Reset
        let result = try Fixtures.read(littleEndian)
        #expect(result.info.linkTypeDescription == "PacketLogger little-endian (v2)")
        #expect(result.records.map(\.timestampUs) == [1_714_011_124_378_596])
        // A second record with an impossible length in the first two: not PacketLogger.
        let damaged = Self.command + Self.record(type: 0x01, [0x0E], length: 3)
        #expect(Fixtures.openError(damaged)?.message.hasPrefix("not a capture file") == true)
    }

    @Test func typeNames() {
        #expect(PacketLoggerType(rawValue: 0xF7).name == "Syslog")
        #expect(PacketLoggerType(rawValue: 0x42).name == "Unknown (0x42)")
        #expect(PacketLoggerType(rawValue: 0x42).kind == .unknown(code: 0x42))
    }
}
