import BLECaptureFormats
import FuzzSupport

FuzzInput.run(fuzzPacketLogger)

/// The PacketLogger reader (it has no magic: detection reads the first records' shape). Read
/// twice, record by record and in batches (`nextBatch`, of 1 to 7 records), which must give the
/// same records and diagnostics.
func fuzzPacketLogger(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.withFile(FuzzInput.bytes(start, count)) { FuzzInput.expectSameBatches($0, batchSize: 1 + count % 7) }
    return 0
}
