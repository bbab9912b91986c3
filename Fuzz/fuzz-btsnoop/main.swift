import BLECaptureFormats
import FuzzSupport

FuzzInput.run(fuzzBtsnoop)

/// The btsnoop reader: the input after the btsnoop magic (prepended when missing, so mutations
/// explore the header and records rather than format detection). Read twice, record by record
/// and in batches (`nextBatch`, of 1 to 7 records), which must give the same records and
/// diagnostics.
func fuzzBtsnoop(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let magic = Array("btsnoop".utf8) + [0]
    var bytes = FuzzInput.bytes(start, count)
    if !bytes.starts(with: magic) { bytes = magic + bytes }
    FuzzInput.withFile(bytes) { FuzzInput.expectSameBatches($0, batchSize: 1 + count % 7) }
    return 0
}
