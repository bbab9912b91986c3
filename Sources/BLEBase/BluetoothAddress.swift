/// A 48-bit Bluetooth device address.
///
/// Stored as on the wire: least significant byte first (Core v5.4 Vol 2 Part E §5.2, and every
/// HCI/LL field carries it that way). Printed most significant byte first,
/// `AA:BB:CC:DD:EE:FF`, as Wireshark and btmon print it.
public struct BluetoothAddress: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The 48-bit address as an integer: the most significant byte is the one printed first.
    public let value: UInt64

    public init(value: UInt64) { self.value = value & 0xFFFF_FFFF_FFFF }

    /// From six bytes in wire order (LSB first); more or fewer bytes are a programming error.
    public init(wire: [UInt8]) {
        precondition(wire.count == 6, "BluetoothAddress(wire:) takes exactly 6 bytes")
        var v: UInt64 = 0
        for byte in wire.reversed() { v = v << 8 | UInt64(byte) }
        value = v
    }

    /// From six bytes most significant first (as printed, as in the demo lock's manufacturer data).
    public init(msbFirst bytes: [UInt8]) {
        self.init(wire: bytes.reversed())
    }

    /// Parses `AA:BB:CC:DD:EE:FF` (also `-` separated or bare hex); nil otherwise.
    public init?(_ text: String) {
        guard let bytes = Hex.bytes(text), bytes.count == 6 else { return nil }
        self.init(msbFirst: bytes)
    }

    /// Reads six bytes in wire order.
    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        value = try reader.readUnsigned(6, bigEndian: false, field: "BD_ADDR")
    }

    public var wire: [UInt8] { (0..<6).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }

    public var msbFirst: [UInt8] { wire.reversed() }

    /// The top two bits of the most significant byte: the random address sub-type
    /// (Core v5.4 Vol 6 Part B §1.3.2).
    public var randomSubType: RandomAddressSubType {
        switch value >> 46 {
        case 0b11: return .staticAddress
        case 0b01: return .resolvablePrivate
        case 0b00: return .nonResolvablePrivate
        default: return .reserved
        }
    }

    /// `AA:BB:CC:DD:EE:FF`, written as 17 bytes (the report prints one per device and connection).
    public var description: String {
        let digits: StaticString = "0123456789ABCDEF"
        return String(unsafeUninitializedCapacity: 17) { text in
            digits.withUTF8Buffer { digits in
                for i in 0..<6 {
                    let byte = Int(truncatingIfNeeded: value >> UInt64(40 - 8 * i)) & 0xFF
                    if i > 0 { text[3 * i - 1] = UInt8(ascii: ":") }
                    text[3 * i] = digits[byte >> 4]
                    text[3 * i + 1] = digits[byte & 0x0F]
                }
            }
            return 17
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.value < rhs.value }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let address = BluetoothAddress(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not a Bluetooth address: \(text)"))
        }
        self = address
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Sub-types of a random device address, from its two most significant bits.
public enum RandomAddressSubType: String, Sendable, Codable {
    case staticAddress = "static"
    case resolvablePrivate = "resolvable"
    case nonResolvablePrivate = "non-resolvable"
    case reserved
}

/// The address type carried next to an address in HCI events and LL PDUs
/// (Core v5.4 Vol 4 Part E §7.7.65.1: 0 public, 1 random, 2 public identity, 3 random identity).
public struct AddressType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let publicDevice = Self(rawValue: 0)
    public static let randomDevice = Self(rawValue: 1)
    public static let publicIdentity = Self(rawValue: 2)
    public static let randomIdentity = Self(rawValue: 3)
    public static let anonymous = Self(rawValue: 0xFF)

    public var isRandom: Bool { rawValue == 1 || rawValue == 3 }

    public var description: String {
        switch rawValue {
        case 0: return "public"
        case 1: return "random"
        case 2: return "public-identity"
        case 3: return "random-identity"
        case 0xFF: return "anonymous"
        default: return "unknown(\(Hex.code(rawValue)))"
        }
    }
}
