import BLEBase
import CaptureFormats
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

    @Test func clampedTimestampsLeaveRoomForDifferencesAndTimeouts() {
        let (sum, sumOverflow) = Timestamp.limitUs.addingReportingOverflow(Timestamp.limitUs)
        let (difference, differenceOverflow) = Timestamp.limitUs.subtractingReportingOverflow(-Timestamp.limitUs)
        #expect(!sumOverflow && !differenceOverflow)
        #expect(sum == difference)
        #expect(Int64.max - difference > 3_600_000_000 * 24 * 365)
    }
}
