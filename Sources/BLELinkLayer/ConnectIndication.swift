import BLEBase

/// CONNECT_IND / AUX_CONNECT_REQ payload (Core v5.4 Vol 6 Part B §2.3.3.1, Figure 2.14):
///
/// ```
/// +-------+------+-----------------------------------------------------------------------+
/// | InitA | AdvA | LLData (22): AA u32 | CRCInit u24 | WinSize u8 | WinOffset u16 |       |
/// |  (6)  | (6)  |  Interval u16 | Latency u16 | Timeout u16 | ChM (5) | Hop:5 SCA:3     |
/// +-------+------+-----------------------------------------------------------------------+
/// ```
/// WinSize and WinOffset in 1.25 ms units, Interval in 1.25 ms, Timeout in 10 ms.
public struct ConnectIndication: Sendable, Equatable {
    public var initA: BluetoothAddress
    public var advA: BluetoothAddress
    public var accessAddress: UInt32
    public var crcInit: UInt32
    public var windowSize: UInt8
    public var windowOffset: UInt16
    public var interval: UInt16
    public var latency: UInt16
    public var timeout: UInt16
    /// Channel map, 37 bits, channel 0 in bit 0 of the first byte.
    public var channelMap: [UInt8]
    public var hopIncrement: UInt8
    public var sleepClockAccuracy: UInt8

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        initA = try BluetoothAddress(parsing: &reader)
        advA = try BluetoothAddress(parsing: &reader)
        accessAddress = try reader.readUInt32LE("AA")
        crcInit = try reader.readUInt24LE("CRCInit")
        windowSize = try reader.readUInt8("WinSize")
        windowOffset = try reader.readUInt16LE("WinOffset")
        interval = try reader.readUInt16LE("Interval")
        latency = try reader.readUInt16LE("Latency")
        timeout = try reader.readUInt16LE("Timeout")
        channelMap = try reader.readBytes(5, "ChM")
        let hopSCA = try reader.readUInt8("Hop/SCA")
        hopIncrement = hopSCA & 0x1F
        sleepClockAccuracy = hopSCA >> 5
    }

    public var intervalUs: Int { Int(interval) * 1250 }
    public var timeoutMs: Int { Int(timeout) * 10 }

    /// Number of data channels the map marks used (bits 0–36).
    public var usedChannelCount: Int {
        var count = 0
        for (i, byte) in channelMap.enumerated() {
            let mask: UInt8 = i == 4 ? 0x1F : 0xFF
            count += (byte & mask).nonzeroBitCount
        }
        return count
    }
}
