import BLEBase

/// A link-layer PDU of either physical channel kind.
public enum LLPDU: Sendable, Equatable {
    case advertising(AdvertisingPDU)
    case data(DataChannelPDU)
}

/// An LE link-layer packet as sniffers write it, preamble removed
/// (Core v5.4 Vol 6 Part B §2.1, Figure 2.1):
///
/// ```
/// +-----------------------+---------------------+----------------------+-------------+
/// | Access Address (u32)  | CI (Coded PHY only) | PDU: header + payload| CRC (3)     |
/// +-----------------------+---------------------+----------------------+-------------+
/// ```
public struct LLPacket: Sendable, Equatable {
    /// 0x8E89BED6: the advertising physical channel access address (§2.1.2).
    public static let advertisingAccessAddress: UInt32 = 0x8E89_BED6

    public var accessAddress: UInt32
    /// Coding indicator (0: S=8, 1: S=2) on the LE Coded PHY.
    public var codingIndicator: UInt8?
    public var pdu: LLPDU
    /// The CRC field, its three bytes read little-endian.
    public var crc: UInt32
    /// The CRC recomputed over the PDU with `crcInit`, when an initial value was known.
    public var computedCRC: UInt32?

    /// - Parameters:
    ///   - advertising: parse the PDU as an advertising channel PDU (else data channel).
    ///   - coded: a CI octet follows the access address.
    ///   - crcInit: the CRC preset to check against (0x555555 on advertising channels, the
    ///     connection's CRCInit on data channels), nil when unknown.
    ///   - encrypted / decrypted / micIncluded: the link's encryption state and whether a
    ///     decrypted payload still ends with its MIC (data channel only).
    public init(parsing reader: inout ByteReader, advertising: Bool, coded: Bool = false, crcInit: UInt32?,
                encrypted: Bool = false, decrypted: Bool = false, micIncluded: Bool = true) throws(DecodeError) {
        reader.layer = .linkLayer
        accessAddress = try reader.readUInt32LE("access address")
        codingIndicator = coded ? try reader.readUInt8("coding indicator") & 0x03 : nil
        var peek = reader
        let first = try peek.readUInt8(advertising ? "advertising header" : "data channel header")
        let length = Int(try peek.readUInt8(advertising ? "advertising length" : "data channel length"))
        let cteOctet = !advertising && first & 0x20 != 0 ? 1 : 0
        var pduReader = try reader.slice(byteCount: 2 + cteOctet + length, "PDU")
        crc = try reader.readUInt24LE("CRC")
        computedCRC = crcInit.map { CRC24.wireValue(pduReader.unreadBytes, initial: $0) }
        if advertising {
            pdu = .advertising(try AdvertisingPDU(parsing: &pduReader))
        } else {
            pdu = .data(try DataChannelPDU(parsing: &pduReader, encrypted: encrypted, decrypted: decrypted,
                                             micIncluded: micIncluded))
        }
        try reader.expectEnd("LL packet")
    }

    /// nil when no CRCInit was known to check with.
    public var crcMatches: Bool? { computedCRC.map { $0 == crc } }
}
