import BLEBase

/// A pcap/pcapng link type (tcpdump.org link-layer header types; libpcap `pcap/dlt.h`): the
/// ones bledecode reads, and what each record's payload then holds.
public struct LinkType: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// H4 packet type byte + HCI packet; no direction.
    public static let bluetoothHCIH4 = Self(rawValue: 187)
    /// u32 BE direction (0 sent, 1 received), then H4.
    public static let bluetoothHCIH4WithPHDR = Self(rawValue: 201)
    /// LE link-layer packet, no pseudo-header.
    public static let bluetoothLELL = Self(rawValue: 251)
    /// u16 BE adapter, u16 BE monitor opcode, payload.
    public static let bluetoothLinuxMonitor = Self(rawValue: 254)
    /// 10-byte little-endian RF pseudo-header, then the LE packet.
    public static let bluetoothLELLWithPHDR = Self(rawValue: 256)
    /// nRF Sniffer protocol header, then the LE packet.
    public static let nordicBLE = Self(rawValue: 272)
    /// DLT_USER10, used by older nRF Sniffer captures for the nordic_ble header.
    public static let user10 = Self(rawValue: 157)
    /// Per-Packet Information header (Ubertooth: inner DLT 147, raw LE LL).
    public static let ppi = Self(rawValue: 192)

    /// The record kind of this link type's packets: HCI link types carry their own H4 or monitor
    /// code (nil here); air link types become `.linkLayer`; others are not supported (nil).
    var role: Role? {
        switch self {
        case .bluetoothHCIH4, .bluetoothHCIH4WithPHDR: return .h4
        case .bluetoothLinuxMonitor: return .monitor
        case .bluetoothLELL, .bluetoothLELLWithPHDR, .nordicBLE, .user10, .ppi: return .linkLayer
        default: return nil
        }
    }

    enum Role { case h4, monitor, linkLayer }

    public var name: String {
        switch self {
        case .bluetoothHCIH4: return "Bluetooth HCI H4"
        case .bluetoothHCIH4WithPHDR: return "Bluetooth HCI H4 with direction pseudo-header"
        case .bluetoothLELL: return "Bluetooth LE link layer"
        case .bluetoothLinuxMonitor: return "Bluetooth Linux monitor"
        case .bluetoothLELLWithPHDR: return "Bluetooth LE link layer with RF pseudo-header"
        case .nordicBLE: return "nRF Sniffer for Bluetooth LE"
        case .user10: return "USER10 (nRF Sniffer, legacy)"
        case .ppi: return "PPI"
        default: return "Unknown (\(rawValue))"
        }
    }
}

/// A btsnoop datalink type (the file header's last field; ble-facts §1, Wireshark `btsnoop.c`).
public struct BtsnoopDatalink: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Unframed HCI; the record flags say command/event vs ACL and the direction.
    public static let h1 = Self(rawValue: 1001)
    /// UART framing: each record starts with the H4 packet type.
    public static let h4 = Self(rawValue: 1002)
    public static let bcsp = Self(rawValue: 1003)
    public static let h5 = Self(rawValue: 1004)
    /// Linux monitor: the record flags hold adapter index and monitor opcode.
    public static let linuxMonitor = Self(rawValue: 2001)
    public static let bluezSimulator = Self(rawValue: 2002)

    /// True for the datalinks this reader decodes.
    public var isSupported: Bool { self == .h1 || self == .h4 || self == .linuxMonitor }

    public var name: String {
        switch self {
        case .h1: return "H1"
        case .h4: return "H4"
        case .bcsp: return "BCSP"
        case .h5: return "H5"
        case .linuxMonitor: return "Linux monitor"
        case .bluezSimulator: return "BlueZ simulator"
        default: return "Unknown (\(rawValue))"
        }
    }
}
