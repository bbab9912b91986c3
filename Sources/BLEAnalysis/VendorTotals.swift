import BLEBase
import BLEVendorDecoding

/// `verify`'s rows: one per connection, direction and characteristic.
public struct VendorTotalsKey: Hashable, Sendable, Comparable {
    public var connection: ConnectionID
    public var direction: String
    public var handle: UInt16
    public static func < (a: Self, b: Self) -> Bool {
        (a.connection, a.direction, a.handle) < (b.connection, b.direction, b.handle)
    }
}

public struct VendorTotals: Sendable {
    public var device: DeviceID?
    public var frames = 0
    public var checksumGood = 0
    public var checksumBad = 0
    public var malformed = 0
    public var unanswered = 0
    public var failed = 0
    public var unsolicited = 0
    /// Where the row's frames lie in the capture: the first frame's first record and time, the
    /// last frame's last ones.
    public var firstRecord = 0
    public var lastRecord = 0
    public var firstTimeUs: Int64 = 0
    public var lastTimeUs: Int64 = 0

    public init(device: DeviceID? = nil) { self.device = device }

    mutating func count(_ frame: VendorFrame) {
        if frames == 0 { (firstRecord, firstTimeUs) = (frame.firstRecord, frame.firstTimeUs) }
        (lastRecord, lastTimeUs) = (max(lastRecord, frame.lastRecord), max(lastTimeUs, frame.lastTimeUs))
        frames += 1
        if frame.checksumOK == true { checksumGood += 1 }
        if frame.checksumOK == false { checksumBad += 1 }
        switch frame.outcome {
        case .malformed: malformed += 1
        case .noResponse: unanswered += 1
        case .failed: failed += 1
        case .unsolicited: unsolicited += 1
        case .ok, .crcMismatch: break
        }
    }

    /// True when every frame verified and every command was answered with success (frames the
    /// device sends on its own, such as a treadmill's workout records, are not failures).
    public var allGood: Bool { checksumBad == 0 && malformed == 0 && unanswered == 0 && failed == 0 }
}
