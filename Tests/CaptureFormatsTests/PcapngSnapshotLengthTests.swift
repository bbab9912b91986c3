import AnalyzerTestSupport
import BLEBase
import BLECaptureFormats
import Testing

/// pcapng packet blocks that captured more than their interface's snapshot length: libpcap
/// refuses each ("bigger than snaplen", sf-pcapng.c) and reads on; the file holds them whole,
/// so they are records like the others (Wireshark reads them too).
@Suite struct PcapngSnapshotLengthTests {
    static let cutWarning = "1 record(s) were cut by the capturing tool (included length < original length)"
    /// The snapshot length of `CaptureWriter.pcapng`'s interface: a 28-byte section header, then
    /// the IDB's type, length, link type and reserved field.
    static let snapshotLengthOffset = 28 + 12

    static func withSnapshotLength(_ bytes: [UInt8], _ length: UInt32) -> [UInt8] {
        var bytes = bytes
        bytes.replaceSubrange(snapshotLengthOffset..<snapshotLengthOffset + 4,
                              with: withUnsafeBytes(of: length.littleEndian, Array.init))
        return bytes
    }

    /// Every record is read whole, in order, at its offset, with its time and direction; only the
    /// record the capturing tool cut (included < original length) is counted as cut.
    @Test(arguments: [UInt32(0), 262_144, 12, 8, 1])
    func blocksLongerThanTheSnapshotLengthAreWhole(snapshotLength: UInt32) throws {
        let bytes = Self.withSnapshotLength(CaptureWriter.pcapng(Fixtures.hciRecords), snapshotLength)
        let result = try Fixtures.read(bytes)
        #expect(Fixtures.withoutOffsets(result.records) == Fixtures.hciRecords)
        // Section header 28, IDB 20; per EPB a 28-byte header, the 201 header, H4 byte and
        // payload padded to 32 bits, the 12-byte flags option and the 4-byte trailer.
        var offset = 28 + 20
        var expected: [Int] = []
        for record in Fixtures.hciRecords {
            expected.append(offset)
            offset += 28 + (4 + 1 + record.payload.count + 3) / 4 * 4 + 12 + 4
        }
        #expect(offset == bytes.count)
        #expect(result.records.map(\.fileOffset) == expected)
        let refused = Fixtures.hciRecords.filter { snapshotLength != 0 && 4 + 1 + $0.payload.count > Int(snapshotLength) }
        #expect(refused.isEmpty == (snapshotLength == 0 || snapshotLength == 262_144))
        #expect(result.diagnostics.map(\.message) == [Self.cutWarning])
    }

    /// An interface with nanosecond or binary resolution and a time offset: refused blocks get
    /// the times libpcap gives the blocks it reads (pcapng §4.2 `if_tsresol`, `if_tsoffset`).
    @Test(arguments: [UInt8(9), 0x9E])
    func refusedBlocksKeepTheInterfaceTime(resolution: UInt8) throws {
        func file(snapshotLength: UInt32) -> [UInt8] {
            var out = ByteWriter(capacity: 512)
            func block(_ type: UInt32, _ body: [UInt8]) {
                let padded = body + [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
                out.writeUInt32LE(type)
                out.writeUInt32LE(UInt32(padded.count + 12))
                out.writeBytes(padded)
                out.writeUInt32LE(UInt32(padded.count + 12))
            }
            var body = ByteWriter()
            body.writeUInt32LE(0x1A2B_3C4D); body.writeUInt16LE(1); body.writeUInt16LE(0); body.writeUInt64LE(UInt64.max)
            block(0x0A0D_0D0A, body.bytes)
            body = ByteWriter()
            body.writeUInt16LE(201); body.writeUInt16LE(0); body.writeUInt32LE(snapshotLength)
            body.writeUInt16LE(9); body.writeUInt16LE(1); body.writeBytes([resolution, 0, 0, 0])
            body.writeUInt16LE(14); body.writeUInt16LE(8); body.writeUInt64LE(5)
            body.writeUInt16LE(0); body.writeUInt16LE(0)
            block(1, body.bytes)
            for (i, length) in [3, 33, 3, 53].enumerated() {
                // An HCI event received (201 direction 1, H4 type 4) of `length` parameter bytes.
                let packet: [UInt8] = [0, 0, 0, 1, 4, 0x0E, UInt8(length)] + (0..<length).map { UInt8($0) }
                let ticks: UInt64 = resolution == 9 ? 1_700_000_000_123_456_789 + UInt64(i) * 987_654_321
                                                    : (1_700_000_000 << 30) + UInt64(i) * 123_456_789
                body = ByteWriter()
                body.writeUInt32LE(0); body.writeUInt32LE(UInt32(ticks >> 32)); body.writeUInt32LE(UInt32(ticks & 0xFFFF_FFFF))
                body.writeUInt32LE(UInt32(packet.count)); body.writeUInt32LE(UInt32(packet.count))
                body.writeBytes(packet)
                block(6, body.bytes)
            }
            return out.bytes
        }
        let whole = try Fixtures.read(file(snapshotLength: 0))
        let refused = try Fixtures.read(file(snapshotLength: 20))
        #expect(whole.records.count == 4)
        #expect(refused.records == whole.records)
        #expect(refused.diagnostics.isEmpty && whole.diagnostics.isEmpty)
        // 10^-9 s: the nanoseconds cut to microseconds; 2^-30 s: 123 456 789 ticks ≈ 0.114978 s; both + 5 s.
        #expect(refused.records.map(\.timestampUs) == (resolution == 9
            ? [1_700_000_005_123_456, 1_700_000_006_111_111, 1_700_000_007_098_765, 1_700_000_008_086_419]
            : [1_700_000_005_000_000, 1_700_000_005_114_978, 1_700_000_005_229_956, 1_700_000_005_344_934]))
    }

    /// A file that ends inside a refused block: the records before it, and where the file ends.
    @Test func aRefusedBlockCutByTheEndOfTheFile() throws {
        let whole = Self.withSnapshotLength(CaptureWriter.pcapng(Fixtures.hciRecords), 8)
        let lastRecord = Fixtures.hciRecords[7]
        let last = 28 + (4 + 1 + lastRecord.payload.count + 3) / 4 * 4 + 12 + 4
        let lastOffset = whole.count - last
        for length in 1..<last {
            let result = try Fixtures.read(Array(whole.prefix(lastOffset + length)))
            #expect(Fixtures.withoutOffsets(result.records) == Array(Fixtures.hciRecords.prefix(7)), "length \(length)")
            let end = length < 8 ? "file ends inside the record header: \(length) of 8 bytes"
                                 : "file ends inside the record: \(length) of \(last) bytes"
            #expect(result.diagnostics.map(\.message) == [end, Self.cutWarning], "length \(length)")
            #expect(result.diagnostics.first?.recordNumber == 8)
            #expect(result.diagnostics.first?.byteOffset == lastOffset)
        }
    }

    /// A refused block whose trailing total length differs from its leading one is damaged: libpcap's
    /// error is said with the record's number, and the records before it are read.
    @Test func aDamagedRefusedBlockIsAnError() throws {
        var bytes = Self.withSnapshotLength(CaptureWriter.pcapng(Fixtures.hciRecords), 8)
        bytes[bytes.count - 4] ^= 0x40
        let result = try Fixtures.read(bytes)
        #expect(Fixtures.withoutOffsets(result.records) == Array(Fixtures.hciRecords.prefix(7)))
        #expect(result.diagnostics.map(\.message) == [
            "libpcap: block total length in header and trailer don't match", Self.cutWarning,
        ])
        #expect(result.diagnostics.first?.recordNumber == 8)
        #expect(result.diagnostics.first?.file.isEmpty == false)
    }
}
