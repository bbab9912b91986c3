import BLEBase

/// pcap link types that carry LE link-layer packets (tcpdump.org `linktypes.html`).
public struct AirLinkType: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// DLT_USER0, as Ubertooth writes raw LL packets inside PPI.
    public static let user0RawLL = AirLinkType(rawValue: 147)
    /// DLT_USER10, as older nRF Sniffer builds wrote nRF Sniffer packets.
    public static let user10Nordic = AirLinkType(rawValue: 157)
    public static let ppi = AirLinkType(rawValue: 192)
    public static let bluetoothLELL = AirLinkType(rawValue: 251)
    public static let bluetoothLELLWithPHDR = AirLinkType(rawValue: 256)
    public static let nordicBLE = AirLinkType(rawValue: 272)

    public var name: String {
        switch rawValue {
        case 147: return "USER0 (raw LE LL)"
        case 157: return "USER10 (nRF Sniffer)"
        case 192: return "PPI"
        case 251: return "BLUETOOTH_LE_LL"
        case 256: return "BLUETOOTH_LE_LL_WITH_PHDR"
        case 272: return "NORDIC_BLE"
        default: return "Unknown (\(rawValue))"
        }
    }
}

/// One air-sniffer record split into what the pseudo-header says and the LL packet bytes
/// (access address, PDU, CRC; no preamble).
public struct AirPacket: Sendable, Equatable {
    public var metadata: AirPacketMetadata
    public var llBytes: [UInt8]

    public init(metadata: AirPacketMetadata, llBytes: [UInt8]) {
        self.metadata = metadata
        self.llBytes = llBytes
    }

    /// Reads the pseudo-header of `linkType` and takes the rest as the LL packet.
    public init(parsing reader: inout ByteReader, linkType: AirLinkType) throws(DecodeError) {
        reader.layer = .linkLayer
        switch linkType {
        case .bluetoothLELL, .user0RawLL:
            metadata = AirPacketMetadata(linkType: linkType.rawValue)
        case .bluetoothLELLWithPHDR:
            metadata = try LERFPseudoHeader(parsing: &reader).metadata
        case .nordicBLE, .user10Nordic:
            let header = try NordicBLEHeader(parsing: &reader)
            var peek = reader
            let accessAddress = try? peek.readUInt32LE("access address")
            metadata = header.metadata(linkType: linkType.rawValue, accessAddress: accessAddress)
        case .ppi:
            let at = reader.reportedOffset
            let ppi = try PPIHeader(parsing: &reader)
            guard ppi.innerLinkType == AirLinkType.user0RawLL.rawValue
                    || ppi.innerLinkType == AirLinkType.bluetoothLELL.rawValue else {
                throw DecodeError.invalid(layer: .linkLayer, field: "PPI DLT", at: at + 4,
                                          reason: "inner link type \(ppi.innerLinkType) is not a raw LE LL packet (147 or 251)")
            }
            metadata = ppi.metadata
        default:
            throw DecodeError.invalid(layer: .linkLayer, field: "link type", at: reader.reportedOffset,
                                      reason: "link type \(linkType.rawValue) does not carry LE link-layer packets")
        }
        llBytes = reader.readRemainingBytes()
    }
}
