import BLEBase

/// The common extended advertising payload (Core v5.4 Vol 6 Part B §2.3.4, Figures 2.17–2.18):
///
/// ```
/// +--------------------------+---------------------------------------------+---------+
/// | ext hdr len:6 AdvMode:2  | extended header (ext hdr len octets)        | AdvData |
/// +--------------------------+---------------------------------------------+---------+
/// extended header: flags u8 | AdvA 6 | TargetA 6 | CTEInfo 1 | ADI 2 | AuxPtr 3
///                  | SyncInfo 18 | TxPower 1 | ACAD (rest); each present when its flag is set
/// flags: 0x01 AdvA 0x02 TargetA 0x04 CTEInfo 0x08 ADI 0x10 AuxPtr 0x20 SyncInfo 0x40 TxPower
/// ```
public struct ExtendedAdvertisingPayload: Sendable, Equatable {
    /// AdvMode: 0 non-connectable non-scannable, 1 connectable, 2 scannable.
    public var advMode: UInt8
    public var flags: UInt8?
    public var advA: BluetoothAddress?
    public var targetA: BluetoothAddress?
    public var cteInfo: UInt8?
    public var advDataInfo: AdvDataInfo?
    public var auxPointer: AuxPointer?
    public var syncInfo: [UInt8]?
    public var txPower: Int8?
    public var acad: [UInt8]
    public var advData: [UInt8]

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        let first = try reader.readUInt8("extended header length")
        advMode = first >> 6
        var header = try reader.slice(byteCount: Int(first & 0x3F), "extended header")
        if header.isAtEnd {
            flags = nil
        } else {
            let f = try header.readUInt8("extended header flags")
            flags = f
            if f & 0x01 != 0 { advA = try BluetoothAddress(parsing: &header) }
            if f & 0x02 != 0 { targetA = try BluetoothAddress(parsing: &header) }
            if f & 0x04 != 0 { cteInfo = try header.readUInt8("CTEInfo") }
            if f & 0x08 != 0 { advDataInfo = AdvDataInfo(rawValue: try header.readUInt16LE("ADI")) }
            if f & 0x10 != 0 { auxPointer = AuxPointer(rawValue: try header.readUInt24LE("AuxPtr")) }
            if f & 0x20 != 0 { syncInfo = try header.readBytes(18, "SyncInfo") }
            if f & 0x40 != 0 { txPower = try header.readInt8("TxPower") }
        }
        acad = header.readRemainingBytes()
        advData = reader.readRemainingBytes()
    }
}

/// AdvDataInfo: DID (bits 0–11) and SID (bits 12–15) (Core v5.4 Vol 6 Part B §2.3.4.5).
public struct AdvDataInfo: Sendable, Equatable {
    public var rawValue: UInt16
    public var dataID: UInt16 { rawValue & 0x0FFF }
    public var setID: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 12) }
}

/// AuxPtr (Core v5.4 Vol 6 Part B §2.3.4.6): channel index (6 bits), CA (1), offset units (1:
/// 300 µs, 0: 30 µs), AUX offset (13), AUX PHY (3).
public struct AuxPointer: Sendable, Equatable {
    public var rawValue: UInt32
    public var channelIndex: UInt8 { UInt8(truncatingIfNeeded: rawValue & 0x3F) }
    public var clockAccuracy: UInt8 { UInt8(truncatingIfNeeded: (rawValue >> 6) & 1) }
    public var offsetUnitsUs: Int { (rawValue >> 7) & 1 == 1 ? 300 : 30 }
    public var auxOffset: UInt16 { UInt16(truncatingIfNeeded: (rawValue >> 8) & 0x1FFF) }
    public var offsetUs: Int { Int(auxOffset) * offsetUnitsUs }
    public var auxPHY: LEPHY { LEPHY(rawValue: UInt8(truncatingIfNeeded: rawValue >> 21) & 0x07) }
}
