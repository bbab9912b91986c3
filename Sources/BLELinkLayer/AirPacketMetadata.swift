import BLEBase

/// Which way a data-channel PDU travelled (Core v5.4 Vol 6 Part B §4.5: central and peripheral roles).
public enum LinkDirection: String, Sendable, Equatable, Hashable, Codable {
    case centralToPeripheral = "c2p"
    case peripheralToCentral = "p2c"

    public var reversed: LinkDirection {
        self == .centralToPeripheral ? .peripheralToCentral : .centralToPeripheral
    }
}

/// The LE PHY a packet was received on (Core v5.4 Vol 6 Part A §2); open, as sniffers use spare codes.
public struct LEPHY: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let le1M = LEPHY(rawValue: 0)
    public static let le2M = LEPHY(rawValue: 1)
    public static let leCoded = LEPHY(rawValue: 2)

    public var name: String {
        switch rawValue {
        case 0: return "LE 1M"
        case 1: return "LE 2M"
        case 2: return "LE Coded"
        default: return "Unknown (\(Hex.code(rawValue)))"
        }
    }
}

/// What the sniffer says the PDU is, before the LL packet is looked at.
public enum AirPDUHint: String, Sendable, Equatable {
    /// The sniffer does not say; the access address decides.
    case unspecified
    case advertising
    case auxiliaryAdvertising
    case data
    case connectedIsochronous
    case broadcastIsochronous
}

/// Everything an air sniffer's pseudo-header says about one received LL packet, normalised
/// across link types 251, 256, 272, 157 and 192. Optional fields are absent when the header
/// does not carry them or flags them as invalid.
public struct AirPacketMetadata: Sendable, Equatable {
    public var linkType: UInt32
    /// RF channel 0–39 (2402 + 2·n MHz).
    public var rfChannel: UInt8?
    /// BLE channel index 0–39 (37–39 primary advertising).
    public var channelIndex: UInt8?
    public var rssiDBm: Int?
    public var noiseDBm: Int?
    public var accessAddressOffenses: UInt8?
    public var referenceAccessAddress: UInt32?
    public var crcChecked = false
    public var crcValid = false
    public var micChecked = false
    public var micValid = false
    /// The sniffer says the link is encrypted (nRF Sniffer flag).
    public var encrypted = false
    /// The header states the encryption state of data PDUs either way (nRF Sniffer), so
    /// `encrypted == false` means plaintext rather than "not said".
    public var encryptionStated = false
    /// The sniffer decrypted the payload before writing it.
    public var decrypted = false
    /// A decrypted payload still ends with its 4-byte MIC, counted in Length (PHDR). The nRF
    /// Sniffer removes the MIC and reduces Length before writing a decrypted PDU.
    public var micIncluded = true
    /// The sniffer followed an encrypted link but could not decrypt this PDU (nRF Sniffer:
    /// encrypted, MIC checked and failed, Length > 0): the payload is ciphertext and MIC.
    public var notDecrypted = false
    public var direction: LinkDirection?
    public var phy: LEPHY?
    public var pduHint: AirPDUHint = .unspecified
    /// nRF Sniffer / PHDR auxiliary PDU type on secondary channels (0 AUX_ADV_IND, 1 AUX_CHAIN_IND,
    /// 2 AUX_SYNC_IND, 3 AUX_SCAN_RSP).
    public var auxType: UInt8?
    public var snifferBoard: UInt8?
    public var snifferProtocolVersion: UInt8?
    public var snifferPacketCounter: UInt16?
    public var eventCounter: UInt16?
    /// nRF Sniffer v3 firmware timestamp of the packet start, µs.
    public var snifferTimestampUs: UInt32?
    /// nRF Sniffer v0–v2 time from the end of the previous packet to the start of this one, µs.
    public var snifferDeltaUs: UInt32?

    public init(linkType: UInt32) { self.linkType = linkType }
}

/// Mapping between RF channels and BLE channel indices (Core v5.4 Vol 6 Part B §1.4.1).
public enum LEChannel {
    public static func index(rfChannel rf: UInt8) -> UInt8? {
        switch rf {
        case 0: return 37
        case 12: return 38
        case 39: return 39
        case 1...11: return rf - 1
        case 13...38: return rf - 2
        default: return nil
        }
    }

    public static func rfChannel(index: UInt8) -> UInt8? {
        switch index {
        case 37: return 0
        case 38: return 12
        case 39: return 39
        case 0...10: return index + 1
        case 11...36: return index + 2
        default: return nil
        }
    }
}
