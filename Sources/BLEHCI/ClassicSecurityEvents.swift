import BLEBase

/// The BR/EDR security events (Core v5.4 Vol 4 Part E §7.7): Secure Simple Pairing and legacy
/// PIN pairing, each about the peer `address`. They arrive as `HCIEventBody.raw` (rare, so
/// decoded on demand by `HCIEventPacket.classicSecurity`). Authentication Complete (§7.7.6) is a
/// `ClassicLinkEvent`.
public enum ClassicSecurityEvent: Sendable, Equatable {
    /// PIN Code Request (§7.7.22): legacy pairing asks the host for the PIN.
    case pinCodeRequest(address: BluetoothAddress)
    /// Link Key Request (§7.7.23): the controller asks the host for the stored link key.
    case linkKeyRequest(address: BluetoothAddress)
    /// Link Key Notification (§7.7.24): pairing made a new link key of `keyType`.
    case linkKeyNotification(address: BluetoothAddress, keyType: UInt8)
    /// IO Capability Request (§7.7.40): the controller asks the local host for its IO capability.
    case ioCapabilityRequest(address: BluetoothAddress)
    /// IO Capability Response (§7.7.41): the remote host's IO capability.
    case ioCapabilityResponse(ClassicIOCapability)
    /// User Confirmation Request (§7.7.42): numeric comparison (or Just Works) asks for a yes/no.
    case userConfirmationRequest(address: BluetoothAddress)
    /// User Passkey Request (§7.7.43) and User Passkey Notification (§7.7.48): passkey entry.
    case userPasskey(address: BluetoothAddress)
    /// Remote OOB Data Request (§7.7.44): out of band.
    case remoteOOBDataRequest(address: BluetoothAddress)
    /// Simple Pairing Complete (§7.7.45): the Secure Simple Pairing's outcome.
    case simplePairingComplete(status: HCIStatus, address: BluetoothAddress)
}

/// One side's IO capability in Secure Simple Pairing: IO Capability Response (§7.7.41) or the
/// host's IO Capability Request Reply (§7.1.29).
///
/// ```
/// +---------+---------------+------------------+-----------------------------+
/// | BD_ADDR | IO_Capability | OOB_Data_Present | Authentication_Requirements |
/// |   6     |      u8       |        u8        |             u8              |
/// +---------+---------------+------------------+-----------------------------+
/// ```
public struct ClassicIOCapability: Sendable, Equatable {
    public var address: BluetoothAddress
    /// 0x00 DisplayOnly, 0x01 DisplayYesNo, 0x02 KeyboardOnly, 0x03 NoInputNoOutput.
    public var ioCapability: UInt8
    public var oobDataPresent: UInt8
    /// Odd: MITM protection required; 0x02–0x05: bonding (dedicated or general).
    public var authenticationRequirements: UInt8

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        address = try BluetoothAddress(parsing: &r)
        ioCapability = try r.readUInt8("IO_Capability")
        oobDataPresent = try r.readUInt8("OOB_Data_Present")
        authenticationRequirements = try r.readUInt8("Authentication_Requirements")
    }

    public var mitm: Bool { authenticationRequirements & 0x01 != 0 }
    public var bonding: Bool { (0x02...0x05).contains(authenticationRequirements) }

    /// `DisplayYesNo`, or `0x07` for a value the specification does not define.
    public var ioCapabilityName: String {
        switch ioCapability {
        case 0x00: "DisplayOnly"
        case 0x01: "DisplayYesNo"
        case 0x02: "KeyboardOnly"
        case 0x03: "NoInputNoOutput"
        default: Hex.code(ioCapability)
        }
    }
}

/// The BR/EDR security commands the host sends (§7.1): what it asked or answered.
public enum ClassicSecurityCommand: Sendable, Equatable {
    /// Authentication Requested (§7.1.15).
    case authenticationRequested(connectionHandle: UInt16)
    /// Link Key Request Reply (§7.1.10): the host has a key; Negative Reply (§7.1.11): it has none.
    case linkKeyReply(address: BluetoothAddress, hasKey: Bool)
    /// IO Capability Request Reply (§7.1.29): the local host's IO capability.
    case ioCapabilityReply(ClassicIOCapability)
    /// IO Capability Request Negative Reply (§7.1.36): the host refuses to pair, with a reason.
    case ioCapabilityNegativeReply(address: BluetoothAddress, reason: HCIStatus)

    public init?(_ command: HCICommandPacket) {
        guard case .raw(let bytes) = command.parameters else { return nil }
        var r = ByteReader(bytes, layer: .hci)
        do throws(DecodeError) {
            switch command.opcode.rawValue {
            case 0x0411: self = .authenticationRequested(connectionHandle: try r.readUInt16LE("Connection_Handle") & 0x0FFF)
            case 0x040B: self = .linkKeyReply(address: try BluetoothAddress(parsing: &r), hasKey: true)
            case 0x040C: self = .linkKeyReply(address: try BluetoothAddress(parsing: &r), hasKey: false)
            case 0x042B: self = .ioCapabilityReply(try ClassicIOCapability(parsing: &r))
            case 0x0434:
                let address = try BluetoothAddress(parsing: &r)
                self = .ioCapabilityNegativeReply(address: address, reason: HCIStatus(rawValue: try r.readUInt8("Reason")))
            default: return nil
            }
        } catch {
            return nil
        }
    }
}

extension HCIEventPacket {
    /// The event as a BR/EDR security event, for codes 0x16–0x18, 0x31–0x36 and 0x3B whose
    /// parameters decode; nil for any other event.
    public var classicSecurity: ClassicSecurityEvent? {
        guard case .raw(let bytes) = body else { return nil }
        var r = ByteReader(bytes, layer: .hci)
        do throws(DecodeError) {
            switch code.rawValue {
            case 0x16: return .pinCodeRequest(address: try BluetoothAddress(parsing: &r))
            case 0x17: return .linkKeyRequest(address: try BluetoothAddress(parsing: &r))
            case 0x18:
                let address = try BluetoothAddress(parsing: &r)
                try r.skip(16, "Link_Key")
                return .linkKeyNotification(address: address, keyType: try r.readUInt8("Key_Type"))
            case 0x31: return .ioCapabilityRequest(address: try BluetoothAddress(parsing: &r))
            case 0x32: return .ioCapabilityResponse(try ClassicIOCapability(parsing: &r))
            case 0x33: return .userConfirmationRequest(address: try BluetoothAddress(parsing: &r))
            case 0x34, 0x3B: return .userPasskey(address: try BluetoothAddress(parsing: &r))
            case 0x35: return .remoteOOBDataRequest(address: try BluetoothAddress(parsing: &r))
            case 0x36:
                let status = HCIStatus(rawValue: try r.readUInt8("Status"))
                return .simplePairingComplete(status: status, address: try BluetoothAddress(parsing: &r))
            default: return nil
            }
        } catch {
            return nil
        }
    }
}
