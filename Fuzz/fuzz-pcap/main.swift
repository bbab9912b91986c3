import BLECaptureFormats
import FuzzSupport

FuzzInput.run(fuzzPcap)

/// The pcap and pcapng readers (libpcap's reading included): inputs that start with neither
/// magic get the little-endian pcap one. Read twice, record by record and in batches
/// (`nextBatch`, of 1 to 7 records), which must give the same records and diagnostics.
func fuzzPcap(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let magics: [[UInt8]] = [[0xD4, 0xC3, 0xB2, 0xA1], [0xA1, 0xB2, 0xC3, 0xD4], [0x4D, 0x3C, 0xB2, 0xA1],
                             [0xA1, 0xB2, 0x3C, 0x4D], [0x0A, 0x0D, 0x0D, 0x0A]]
    var bytes = FuzzInput.bytes(start, count)
    if !magics.contains(where: { bytes.starts(with: $0) }) { bytes = magics[0] + bytes }
    FuzzInput.withFile(bytes) { FuzzInput.expectSameBatches($0, batchSize: 1 + count % 7) }
    return 0
}
