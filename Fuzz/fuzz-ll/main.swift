import FuzzSupport
import BLELinkLayer

FuzzInput.run(fuzzLL)

/// Air captures: a sequence of (link type, time step, bytes) through the link-layer tracker
/// (pseudo-headers, advertising and data PDUs, control procedures, connection following).
func fuzzLL(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let linkTypes: [UInt32] = [251, 256, 272, 157, 192]
    var cursor = FuzzCursor(FuzzInput.bytes(start, count))
    var tracker = LinkLayerTracker()
    var time: Int64 = 0
    while !cursor.isAtEnd {
        let linkType = linkTypes[Int(cursor.byte() % UInt8(linkTypes.count))]
        time += Int64(cursor.byte()) * 1250
        let result = tracker.process(timestampUs: time, linkType: linkType, bytes: cursor.chunk())
        _ = result.packet?.summary
    }
    return 0
}
