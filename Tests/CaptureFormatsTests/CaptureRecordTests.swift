import BLEBase
import BLECaptureFormats
import Testing

/// Record timestamps stay where arithmetic on them cannot overflow, whatever the file says.
struct CaptureRecordTests {
    @Test(arguments: [
        (Int64.max, Timestamp.limitUs), (Int64.min, -Timestamp.limitUs),
        (Timestamp.limitUs + 1, Timestamp.limitUs), (1_714_000_000_000_000, 1_714_000_000_000_000), (-5, -5),
    ])
    func timestampsAreClamped(written: Int64, kept: Int64) {
        let record = CaptureRecord(index: 1, timestampUs: written, direction: .sent, kind: .hciCommand, payload: [])
        #expect(record.timestampUs == kept)
    }

    /// A record that shares a buffer shows only its own bytes, reads them with offsets from its
    /// first byte, and equals a record that holds the same bytes in an array of its own.
    @Test func sharedPayloadIsOnlyTheRecordsBytes() throws {
        var buffer = ByteReader([0xEE, 0xEE, 0x03, 0x0C, 0x00, 0xEE], layer: .capture)
        try buffer.skip(2)
        let packet = try #require(try? buffer.slice(byteCount: 3))
        let shared = CaptureRecord(index: 1, timestampUs: 0, direction: .sent, kind: .hciCommand, sharing: packet)
        let own = CaptureRecord(index: 1, timestampUs: 0, direction: .sent, kind: .hciCommand, payload: [0x03, 0x0C, 0x00])
        #expect(shared.payload == [0x03, 0x0C, 0x00])
        #expect(shared.payloadCount == 3)
        #expect(shared.originalLength == 3)
        #expect(!shared.isTruncated)
        #expect(shared.storage.count == 6)
        #expect(shared == own)
        var reader = shared.payloadReader(layer: .hci)
        #expect(reader.reportedOffset == 0)
        #expect(try reader.readUInt16LE() == 0x0C03)
        #expect(throws: DecodeError.self) { try reader.readUInt16LE() }
        #expect(reader.reportedOffset == 2)
        var changed = shared
        changed.payload = [0x01]
        #expect(changed.storage == [0x01])
        #expect(changed != shared)
    }

    @Test func clampedTimestampsLeaveRoomForDifferencesAndTimeouts() {
        let (sum, sumOverflow) = Timestamp.limitUs.addingReportingOverflow(Timestamp.limitUs)
        let (difference, differenceOverflow) = Timestamp.limitUs.subtractingReportingOverflow(-Timestamp.limitUs)
        #expect(!sumOverflow && !differenceOverflow)
        #expect(sum == difference)
        #expect(Int64.max - difference > 3_600_000_000 * 24 * 365)
    }
}
