import BLEBase

/// An AD type (Bluetooth Assigned Numbers §2.3 "Common Data Types"; formats in Core Supplement v11 Part A §1).
public struct ADType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let flags = Self(rawValue: 0x01)
    public static let incompleteServiceUUIDs16 = Self(rawValue: 0x02)
    public static let completeServiceUUIDs16 = Self(rawValue: 0x03)
    public static let incompleteServiceUUIDs32 = Self(rawValue: 0x04)
    public static let completeServiceUUIDs32 = Self(rawValue: 0x05)
    public static let incompleteServiceUUIDs128 = Self(rawValue: 0x06)
    public static let completeServiceUUIDs128 = Self(rawValue: 0x07)
    public static let shortenedLocalName = Self(rawValue: 0x08)
    public static let completeLocalName = Self(rawValue: 0x09)
    public static let txPowerLevel = Self(rawValue: 0x0A)
    public static let classOfDevice = Self(rawValue: 0x0D)
    public static let serviceSolicitationUUIDs16 = Self(rawValue: 0x14)
    public static let serviceSolicitationUUIDs128 = Self(rawValue: 0x15)
    public static let serviceData16 = Self(rawValue: 0x16)
    public static let publicTargetAddress = Self(rawValue: 0x17)
    public static let randomTargetAddress = Self(rawValue: 0x18)
    public static let appearance = Self(rawValue: 0x19)
    public static let advertisingInterval = Self(rawValue: 0x1A)
    public static let leBluetoothDeviceAddress = Self(rawValue: 0x1B)
    public static let leRole = Self(rawValue: 0x1C)
    public static let serviceSolicitationUUIDs32 = Self(rawValue: 0x1F)
    public static let serviceData32 = Self(rawValue: 0x20)
    public static let serviceData128 = Self(rawValue: 0x21)
    public static let uri = Self(rawValue: 0x24)
    public static let manufacturerSpecificData = Self(rawValue: 0xFF)

    public var name: String { Self.names[rawValue] ?? "Unknown (\(Hex.code(rawValue)))" }
    public var description: String { Self.names[rawValue] == nil ? name : "\(name) (\(Hex.code(rawValue)))" }

    /// Assigned Numbers §2.3 (2024 edition).
    static let names: [UInt8: String] = [
        0x01: "Flags",
        0x02: "Incomplete List of 16-bit Service UUIDs",
        0x03: "Complete List of 16-bit Service UUIDs",
        0x04: "Incomplete List of 32-bit Service UUIDs",
        0x05: "Complete List of 32-bit Service UUIDs",
        0x06: "Incomplete List of 128-bit Service UUIDs",
        0x07: "Complete List of 128-bit Service UUIDs",
        0x08: "Shortened Local Name",
        0x09: "Complete Local Name",
        0x0A: "Tx Power Level",
        0x0D: "Class of Device",
        0x0E: "Simple Pairing Hash C-192",
        0x0F: "Simple Pairing Randomizer R-192",
        0x10: "Device ID / Security Manager TK Value",
        0x11: "Security Manager Out of Band Flags",
        0x12: "Peripheral Connection Interval Range",
        0x14: "List of 16-bit Service Solicitation UUIDs",
        0x15: "List of 128-bit Service Solicitation UUIDs",
        0x16: "Service Data - 16-bit UUID",
        0x17: "Public Target Address",
        0x18: "Random Target Address",
        0x19: "Appearance",
        0x1A: "Advertising Interval",
        0x1B: "LE Bluetooth Device Address",
        0x1C: "LE Role",
        0x1D: "Simple Pairing Hash C-256",
        0x1E: "Simple Pairing Randomizer R-256",
        0x1F: "List of 32-bit Service Solicitation UUIDs",
        0x20: "Service Data - 32-bit UUID",
        0x21: "Service Data - 128-bit UUID",
        0x22: "LE Secure Connections Confirmation Value",
        0x23: "LE Secure Connections Random Value",
        0x24: "URI",
        0x25: "Indoor Positioning",
        0x26: "Transport Discovery Data",
        0x27: "LE Supported Features",
        0x28: "Channel Map Update Indication",
        0x29: "PB-ADV",
        0x2A: "Mesh Message",
        0x2B: "Mesh Beacon",
        0x2C: "BIGInfo",
        0x2D: "Broadcast_Code",
        0x2E: "Resolvable Set Identifier",
        0x2F: "Advertising Interval - long",
        0x30: "Broadcast_Name",
        0x31: "Encrypted Advertising Data",
        0x32: "Periodic Advertising Response Timing Information",
        0x34: "Electronic Shelf Label",
        0x3D: "3D Information Data",
        0xFF: "Manufacturer Specific Data",
    ]
}

/// The Flags AD structure's bits (Core Supplement v11 Part A §1.3).
public struct ADFlags: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let leLimitedDiscoverable = Self(rawValue: 0x01)
    public static let leGeneralDiscoverable = Self(rawValue: 0x02)
    public static let brEdrNotSupported = Self(rawValue: 0x04)
    public static let simultaneousLEAndBrEdrController = Self(rawValue: 0x08)

    public func contains(_ flag: Self) -> Bool { rawValue & flag.rawValue == flag.rawValue }

    /// Names of the set bits, low bit first; bit 4 is "previously used", bits 5–7 reserved.
    public var names: [String] {
        let bitNames = ["LE Limited Discoverable Mode", "LE General Discoverable Mode", "BR/EDR Not Supported",
                        "Simultaneous LE and BR/EDR (Controller)", "Previously Used (bit 4)"]
        return (0..<8).compactMap { bit -> String? in
            guard rawValue & (1 << bit) != 0 else { return nil }
            return bit < bitNames.count ? bitNames[bit] : "Reserved (bit \(bit))"
        }
    }

    public var description: String { names.isEmpty ? "none" : names.joined(separator: ", ") }
}
