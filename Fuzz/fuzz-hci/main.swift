import BLECaptureFormats
import FuzzSupport
import BLEPacketDecoding
import BLEReports

FuzzInput.run(fuzzHCI)

/// HCI packets through the packet decoder (HCI → L2CAP reassembly → ATT/SMP/signalling), rendered
/// as the packet list does: the input is a sequence of (kind, direction, length, bytes).
func fuzzHCI(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let kinds: [RecordKind] = [.hciCommand, .hciEvent, .aclData, .scoData, .isoData]
    var cursor = FuzzCursor(FuzzInput.bytes(start, count))
    var decoder = PacketDecoder()
    var listing = PacketListing(verbose: true)
    var index = 0
    while !cursor.isAtEnd {
        index += 1
        let kind = kinds[Int(cursor.byte() % UInt8(kinds.count))]
        let direction: Direction = cursor.byte() & 1 == 0 ? .sent : .received
        let payload = cursor.chunk()
        var record = CaptureRecord(index: index, timestampUs: Int64(index) * 1250, direction: direction, kind: kind,
                                   payload: payload, originalLength: payload.count + Int(cursor.byte() & 3))
        var packet = DecodedPacket(record: record)
        decoder.decode(swapping: &record, into: &packet)
        _ = listing.text(packet)
        _ = listing.json(packet)
    }
    _ = decoder.finish()
    return 0
}
