import BLEBase

/// The 10-byte pseudo-header of link type 256 `BLUETOOTH_LE_LL_WITH_PHDR`, little-endian
/// (tcpdump.org `linktypes/LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR.html`):
///
/// ```
/// +---------+--------+-------+-------------+--------------------+----------+
/// | RF chan | signal | noise | AA offenses | reference AA (u32) | flags u16|
/// |   u8    |  i8    |  i8   |     u8      |                    |          |
/// +---------+--------+-------+-------------+--------------------+----------+
/// flags: 0x0001 dewhitened  0x0002 signal valid  0x0004 noise valid  0x0008 decrypted
///        0x0010 ref AA valid  0x0020 offenses valid  0x0040 channel aliased
///        0x0380 PDU type  0x0400 CRC checked  0x0800 CRC valid
///        0x1000 MIC checked  0x2000 MIC valid (aux type when PDU type is 1)  0xC000 PHY
/// ```
public struct LERFPseudoHeader: Sendable, Equatable {
    public static let size = 10

    public var rfChannel: UInt8
    public var signal: Int8
    public var noise: Int8
    public var accessAddressOffenses: UInt8
    public var referenceAccessAddress: UInt32
    public var flags: UInt16

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        rfChannel = try reader.readUInt8("RF channel")
        signal = try reader.readInt8("signal power")
        noise = try reader.readInt8("noise power")
        accessAddressOffenses = try reader.readUInt8("access address offenses")
        referenceAccessAddress = try reader.readUInt32LE("reference access address")
        flags = try reader.readUInt16LE("flags")
    }

    private func has(_ bit: UInt16) -> Bool { flags & bit != 0 }

    /// Bits 7–9 of the flags.
    public var pduType: UInt8 { UInt8(truncatingIfNeeded: (flags & 0x0380) >> 7) }

    public var metadata: AirPacketMetadata {
        var m = AirPacketMetadata(linkType: 256)
        m.rfChannel = rfChannel
        m.channelIndex = LEChannel.index(rfChannel: rfChannel)
        if has(0x0002) { m.rssiDBm = Int(signal) }
        if has(0x0004) { m.noiseDBm = Int(noise) }
        if has(0x0010) { m.referenceAccessAddress = referenceAccessAddress }
        if has(0x0020) { m.accessAddressOffenses = accessAddressOffenses }
        m.decrypted = has(0x0008)
        m.crcChecked = has(0x0400)
        m.crcValid = has(0x0800)
        switch pduType {
        case 0: m.pduHint = .unspecified
        case 1:
            m.pduHint = .auxiliaryAdvertising
            m.auxType = UInt8(truncatingIfNeeded: (flags & 0x3000) >> 12)
        case 2: m.pduHint = .data; m.direction = .centralToPeripheral
        case 3: m.pduHint = .data; m.direction = .peripheralToCentral
        case 4: m.pduHint = .connectedIsochronous; m.direction = .centralToPeripheral
        case 5: m.pduHint = .connectedIsochronous; m.direction = .peripheralToCentral
        case 6: m.pduHint = .broadcastIsochronous
        default: m.pduHint = .unspecified
        }
        if pduType != 1 {
            m.micChecked = has(0x1000)
            m.micValid = has(0x2000)
        }
        m.phy = LEPHY(rawValue: UInt8(truncatingIfNeeded: flags >> 14))
        return m
    }
}
