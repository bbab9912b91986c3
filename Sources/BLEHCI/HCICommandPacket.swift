import BLEBase

/// An HCI command packet as the host sends it, after the H4 type byte
/// (Core v5.4 Vol 4 Part E §5.4.1).
///
/// ```
/// +--------+--------+--------+------------------------------------+
/// |  opcode (u16)   | length |  parameters (length bytes)         |
/// +--------+--------+--------+------------------------------------+
/// ```
public struct HCICommandPacket: Sendable, Equatable {
    public var opcode: HCIOpcode
    public var parameterTotalLength: UInt8
    public var parameters: HCICommandParameters

    /// Reads a whole command; the parameter total length must match the bytes present.
    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        reader.layer = .hci
        opcode = HCIOpcode(rawValue: try reader.readUInt16LE("opcode"))
        parameterTotalLength = try reader.readUInt8("parameter total length")
        var body = try reader.slice(byteCount: Int(parameterTotalLength), "command parameters")
        try reader.expectEnd("HCI command parameters")
        parameters = try HCICommandParameters(parsing: &body, opcode: opcode)
    }
}

/// The parameters of a command, typed for the commands a BLE analysis needs; every other
/// command keeps its parameter bytes raw.
public enum HCICommandParameters: Sendable, Equatable {
    case disconnect(DisconnectCommand)
    case leSetScanParameters(LESetScanParametersCommand)
    case leSetScanEnable(LESetScanEnableCommand)
    case leSetExtendedScanParameters(LESetExtendedScanParametersCommand)
    case leSetExtendedScanEnable(LESetExtendedScanEnableCommand)
    case leCreateConnection(LECreateConnectionCommand)
    case leCreateConnectionCancel
    case leExtendedCreateConnection(LEExtendedCreateConnectionCommand)
    case leConnectionUpdate(LEConnectionUpdateCommand)
    case leSetDataLength(LESetDataLengthCommand)
    case leSetPHY(LESetPHYCommand)
    case leReadRemoteFeatures(connectionHandle: UInt16)
    case leEnableEncryption(LEEnableEncryptionCommand)
    case leLongTermKeyRequestReply(LELongTermKeyRequestReplyCommand)
    case leSetAdvertisingParameters(LESetAdvertisingParametersCommand)
    case leSetAdvertisingData(LESetAdvertisingDataCommand)
    case leSetScanResponseData(LESetAdvertisingDataCommand)
    case leSetAdvertisingEnable(enable: UInt8)
    case leAddDeviceToFilterAcceptList(addressType: AddressType, address: BluetoothAddress)
    /// Any other command: its parameter bytes.
    case raw([UInt8])

    /// Dispatches on the opcode; typed parameters must fill the parameter block exactly.
    public init(parsing r: inout ByteReader, opcode: HCIOpcode) throws(DecodeError) {
        switch opcode {
        case .disconnect: self = .disconnect(try DisconnectCommand(parsing: &r))
        case .leSetScanParameters: self = .leSetScanParameters(try LESetScanParametersCommand(parsing: &r))
        case .leSetScanEnable: self = .leSetScanEnable(try LESetScanEnableCommand(parsing: &r))
        case .leSetExtendedScanParameters:
            self = .leSetExtendedScanParameters(try LESetExtendedScanParametersCommand(parsing: &r))
        case .leSetExtendedScanEnable:
            self = .leSetExtendedScanEnable(try LESetExtendedScanEnableCommand(parsing: &r))
        case .leCreateConnection: self = .leCreateConnection(try LECreateConnectionCommand(parsing: &r))
        case .leCreateConnectionCancel: self = .leCreateConnectionCancel
        case .leExtendedCreateConnection, .leExtendedCreateConnectionV2:
            self = .leExtendedCreateConnection(
                try LEExtendedCreateConnectionCommand(parsing: &r, version2: opcode == .leExtendedCreateConnectionV2))
        case .leConnectionUpdate: self = .leConnectionUpdate(try LEConnectionUpdateCommand(parsing: &r))
        case .leSetDataLength: self = .leSetDataLength(try LESetDataLengthCommand(parsing: &r))
        case .leSetPHY: self = .leSetPHY(try LESetPHYCommand(parsing: &r))
        case .leReadRemoteFeatures: self = .leReadRemoteFeatures(connectionHandle: try r.readUInt16LE("Connection_Handle"))
        case .leEnableEncryption: self = .leEnableEncryption(try LEEnableEncryptionCommand(parsing: &r))
        case .leLongTermKeyRequestReply:
            self = .leLongTermKeyRequestReply(try LELongTermKeyRequestReplyCommand(parsing: &r))
        case .leSetAdvertisingParameters:
            self = .leSetAdvertisingParameters(try LESetAdvertisingParametersCommand(parsing: &r))
        case .leSetAdvertisingData: self = .leSetAdvertisingData(try LESetAdvertisingDataCommand(parsing: &r))
        case .leSetScanResponseData: self = .leSetScanResponseData(try LESetAdvertisingDataCommand(parsing: &r))
        case .leSetAdvertisingEnable: self = .leSetAdvertisingEnable(enable: try r.readUInt8("Advertising_Enable"))
        case .leAddDeviceToFilterAcceptList:
            let type = AddressType(rawValue: try r.readUInt8("Address_Type"))
            self = .leAddDeviceToFilterAcceptList(addressType: type, address: try BluetoothAddress(parsing: &r))
        default: self = .raw(r.readRemainingBytes())
        }
        try r.expectEnd("command parameters")
    }
}
