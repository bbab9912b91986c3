import BLEBase

/// The BR/EDR events that make a Classic link visible: its completion, the peer's name. They
/// arrive as `HCIEventBody.raw` (rare, so decoded on demand by `HCIEventPacket.classicLink`).
public enum ClassicLinkEvent: Sendable, Equatable {
    case connectionComplete(ClassicConnectionCompleteEvent)
    case remoteNameRequestComplete(RemoteNameRequestCompleteEvent)
    case extendedInquiryResult(ExtendedInquiryResultEvent)
    /// Synchronous Connection Complete (§7.7.35): an SCO or eSCO link, its status and handle.
    case synchronousConnectionComplete(status: HCIStatus, connectionHandle: UInt16)
    /// Authentication Complete (§7.7.6): the link's status and handle.
    case authenticationComplete(status: HCIStatus, connectionHandle: UInt16)
    /// Role Change (§7.7.18): the local device's new role on the link to `address` (0x00
    /// central, 0x01 peripheral).
    case roleChange(status: HCIStatus, address: BluetoothAddress, newRole: UInt8)
}

extension ClassicLinkEvent {
    /// The parameters after the event's name: `handle 0x002A status Success peer E0:49:B9:CA:00:2A
    /// ACL encryption off`. A name from the capture is quoted, escaped by the caller's output.
    public var summary: String {
        let h = { (handle: UInt16) in "handle \(Hex.code(handle, width: 4))" }
        switch self {
        case .connectionComplete(let e):
            return "\(h(e.connectionHandle)) status \(e.status) peer \(e.address) "
                + (e.isACL ? "ACL" : e.linkType == 0x00 ? "SCO" : "link type \(Hex.code(e.linkType))")
                + " encryption \(e.encryptionEnabled == 0 ? "off" : "on")"
        case .remoteNameRequestComplete(let e):
            return "status \(e.status) peer \(e.address) name \(TerminalText.quoted(e.name))"
        case .extendedInquiryResult(let e):
            return "peer \(e.address) class \(Hex.code(e.classOfDevice, width: 6)) RSSI \(e.rssi) dBm"
                + (e.data.localName.map { " name " + TerminalText.quoted($0) } ?? "")
        case .synchronousConnectionComplete(let status, let handle):
            return "\(h(handle)) status \(status)"
        case .authenticationComplete(let status, let handle):
            return "\(h(handle)) status \(status)"
        case .roleChange(let status, let address, let newRole):
            return "status \(status) peer \(address) new role "
                + (newRole == 0x00 ? "central" : newRole == 0x01 ? "peripheral" : Hex.code(newRole))
        }
    }
}

/// The local device's role a BR/EDR command asks for on a link to `address`: Create Connection
/// (§7.1.5, the initiator is the central) and Accept Connection Request (§7.1.8, its Role
/// parameter: 0x00 become the central, 0x01 remain the peripheral). 0x00 central, 0x01 peripheral.
public struct ClassicConnectionRequest: Sendable, Equatable {
    public var address: BluetoothAddress
    public var role: UInt8

    public init?(_ command: HCICommandPacket) {
        guard case .raw(let bytes) = command.parameters,
              command.opcode.rawValue == 0x0405 || command.opcode.rawValue == 0x0409 else { return nil }
        var r = ByteReader(bytes, layer: .hci)
        guard let address = try? BluetoothAddress(parsing: &r) else { return nil }
        self.address = address
        if command.opcode.rawValue == 0x0405 {
            role = 0x00
        } else if let role = try? r.readUInt8("Role") {
            self.role = role
        } else {
            return nil
        }
    }
}

extension HCIEventPacket {
    /// The event as a Classic link event, for codes 0x03, 0x06, 0x07, 0x12, 0x2C and 0x2F whose parameters decode;
    /// nil for any other event.
    public var classicLink: ClassicLinkEvent? {
        guard case .raw(let bytes) = body else { return nil }
        var r = ByteReader(bytes, layer: .hci)
        do throws(DecodeError) {
            switch code.rawValue {
            case 0x03: return .connectionComplete(try ClassicConnectionCompleteEvent(parsing: &r))
            case 0x07: return .remoteNameRequestComplete(try RemoteNameRequestCompleteEvent(parsing: &r))
            case 0x2F: return .extendedInquiryResult(try ExtendedInquiryResultEvent(parsing: &r))
            case 0x06:
                let status = HCIStatus(rawValue: try r.readUInt8("Status"))
                return .authenticationComplete(status: status, connectionHandle: try r.readUInt16LE("Connection_Handle"))
            case 0x12:
                let status = HCIStatus(rawValue: try r.readUInt8("Status"))
                let address = try BluetoothAddress(parsing: &r)
                return .roleChange(status: status, address: address, newRole: try r.readUInt8("New_Role"))
            case 0x2C:
                let status = HCIStatus(rawValue: try r.readUInt8("Status"))
                return .synchronousConnectionComplete(status: status, connectionHandle: try r.readUInt16LE("Connection_Handle"))
            default: return nil
            }
        } catch {
            return nil
        }
    }
}

/// Core v5.4 Vol 4 Part E §7.7.3 Connection Complete (BR/EDR).
///
/// ```
/// +--------+-------------------+---------+-----------+--------------------+
/// | Status | Connection_Handle | BD_ADDR | Link_Type | Encryption_Enabled |
/// |   u8   |       u16         |   6     |    u8     |         u8         |
/// +--------+-------------------+---------+-----------+--------------------+
/// ```
public struct ClassicConnectionCompleteEvent: Sendable, Equatable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var address: BluetoothAddress
    /// 0x00 SCO, 0x01 ACL (the only type that carries L2CAP).
    public var linkType: UInt8
    public var encryptionEnabled: UInt8

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        status = HCIStatus(rawValue: try r.readUInt8("Status"))
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        address = try BluetoothAddress(parsing: &r)
        linkType = try r.readUInt8("Link_Type")
        encryptionEnabled = try r.readUInt8("Encryption_Enabled")
    }

    public var isACL: Bool { linkType == 0x01 }
}

/// Core v5.4 Vol 4 Part E §7.7.7 Remote Name Request Complete: the name is UTF-8, up to 248
/// bytes, ended by a zero byte when shorter.
///
/// ```
/// +--------+---------+-------------------+
/// | Status | BD_ADDR | Remote_Name       |
/// |   u8   |   6     | up to 248 bytes   |
/// +--------+---------+-------------------+
/// ```
public struct RemoteNameRequestCompleteEvent: Sendable, Equatable {
    public var status: HCIStatus
    public var address: BluetoothAddress
    public var name: String

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        status = HCIStatus(rawValue: try r.readUInt8("Status"))
        address = try BluetoothAddress(parsing: &r)
        let bytes = r.readRemainingBytes()
        name = String(decoding: bytes.prefix { $0 != 0 }.prefix(248), as: UTF8.self)
    }
}

/// Core v5.4 Vol 4 Part E §7.7.38 Extended Inquiry Result: one response whose extended inquiry
/// data has the advertising data's format (Vol 3 Part C §8).
///
/// ```
/// +---------------+---------+-----------+----------+-----------------+--------------+------+----------+
/// | Num_Responses | BD_ADDR | PS_Rep_Md | Reserved | Class_Of_Device | Clock_Offset | RSSI | EIR data |
/// |      u8       |   6     |    u8     |    u8    |       u24       |     u16      |  i8  |   240    |
/// +---------------+---------+-----------+----------+-----------------+--------------+------+----------+
/// ```
public struct ExtendedInquiryResultEvent: Sendable, Equatable {
    public var address: BluetoothAddress
    public var classOfDevice: UInt32
    public var rssi: Int8
    public var data: AdvertisingData

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        _ = try r.readUInt8("Num_Responses")
        address = try BluetoothAddress(parsing: &r)
        _ = try r.readUInt8("Page_Scan_Repetition_Mode")
        _ = try r.readUInt8("Reserved")
        classOfDevice = try r.readUInt24LE("Class_Of_Device")
        _ = try r.readUInt16LE("Clock_Offset")
        rssi = try r.readInt8("RSSI")
        // The data is zero-padded to 240 bytes; a zero length ends it (Vol 3 Part C §8).
        var eir = ByteReader(Array(r.readRemainingBytes().prefix(240)), layer: .advertisingData)
        data = AdvertisingData(parsing: &eir)
    }
}
