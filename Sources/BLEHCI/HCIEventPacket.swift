import BLEBase

/// An HCI event packet as the controller sends it, after the H4 type byte
/// (Core v5.4 Vol 4 Part E §5.4.4).
///
/// ```
/// +------------+--------+-------------------------------+
/// | event code | length | parameters (length bytes)     |
/// |     u8     |   u8   |                               |
/// +------------+--------+-------------------------------+
/// ```
public struct HCIEventPacket: Sendable, Equatable {
    public var code: HCIEventCode
    public var parameterTotalLength: UInt8
    public var body: HCIEventBody

    /// Reads a whole event; the parameter total length must match the bytes present.
    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        reader.layer = .hci
        code = HCIEventCode(rawValue: try reader.readUInt8("event code"))
        parameterTotalLength = try reader.readUInt8("parameter total length")
        var parameters = try reader.slice(byteCount: Int(parameterTotalLength), "event parameters")
        try reader.expectEnd("HCI event parameters")
        body = try HCIEventBody(parsing: &parameters, code: code)
    }
}

/// The parameters of an event, typed for the events a BLE analysis needs; others stay raw.
public enum HCIEventBody: Sendable, Equatable {
    case disconnectionComplete(DisconnectionCompleteEvent)
    /// Encryption Change v1 (0x08) and v2 (0x59, with the key size).
    case encryptionChange(EncryptionChangeEvent)
    case readRemoteVersionInformationComplete(ReadRemoteVersionInformationCompleteEvent)
    case commandComplete(CommandCompleteEvent)
    case commandStatus(CommandStatusEvent)
    case hardwareError(hardwareCode: UInt8)
    case numberOfCompletedPackets(CompletedPacketsList)
    /// 0x00 synchronous buffer overflow, 0x01 ACL buffer overflow.
    case dataBufferOverflow(linkType: UInt8)
    case encryptionKeyRefreshComplete(status: HCIStatus, connectionHandle: UInt16)
    case leMeta(LEMetaEvent)
    /// Vendor-specific event (0xFF): parameter bytes as sent.
    case vendor([UInt8])
    /// Any other event: its parameter bytes.
    case raw([UInt8])

    /// Dispatches on the event code; typed bodies must fill the parameters exactly.
    public init(parsing r: inout ByteReader, code: HCIEventCode) throws(DecodeError) {
        switch code {
        case .disconnectionComplete: self = .disconnectionComplete(try DisconnectionCompleteEvent(parsing: &r))
        case .encryptionChangeV1: self = .encryptionChange(try EncryptionChangeEvent(parsing: &r, version2: false))
        case .encryptionChangeV2: self = .encryptionChange(try EncryptionChangeEvent(parsing: &r, version2: true))
        case .readRemoteVersionInformationComplete:
            self = .readRemoteVersionInformationComplete(try ReadRemoteVersionInformationCompleteEvent(parsing: &r))
        case .commandComplete: self = .commandComplete(try CommandCompleteEvent(parsing: &r))
        case .commandStatus: self = .commandStatus(try CommandStatusEvent(parsing: &r))
        case .hardwareError: self = .hardwareError(hardwareCode: try r.readUInt8("Hardware_Code"))
        case .numberOfCompletedPackets: self = .numberOfCompletedPackets(try CompletedPackets.parseList(&r))
        case .dataBufferOverflow: self = .dataBufferOverflow(linkType: try r.readUInt8("Link_Type"))
        case .encryptionKeyRefreshComplete:
            let status = HCIStatus(rawValue: try r.readUInt8("Status"))
            self = .encryptionKeyRefreshComplete(status: status, connectionHandle: try r.readUInt16LE("Connection_Handle"))
        case .leMeta: self = .leMeta(try LEMetaEvent(parsing: &r))
        case .vendorSpecific: self = .vendor(r.readRemainingBytes())
        default: self = .raw(r.readRemainingBytes())
        }
        try r.expectEnd("event parameters")
    }
}
