import BLEBase

/// One signalling command (Core v5.4 Vol 3 Part A §4).
///
/// ```
/// 0      1            2        4
/// +------+------------+--------+----------------+
/// | code | identifier | length | data           |
/// +------+------------+--------+----------------+
///   u8     u8           u16 LE   `length` bytes
/// ```
public struct SignallingCommand: Sendable, Equatable {
    public var code: SignallingCode
    /// Matches a response to its request.
    public var identifier: UInt8
    public var parameters: SignallingParameters

    public init(code: SignallingCode, identifier: UInt8, parameters: SignallingParameters) {
        self.code = code
        self.identifier = identifier
        self.parameters = parameters
    }

    /// Reads one command; the data's size is checked against the code's rule before the
    /// typed decoder runs.
    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        code = SignallingCode(rawValue: try reader.readUInt8("signalling code"))
        identifier = try reader.readUInt8("signalling identifier")
        let length = try reader.readUInt16LE("signalling length")
        var data = try reader.slice(byteCount: Int(length), layer: .signalling, "signalling data")
        guard let rule = code.dataLength else {
            parameters = .raw(data.readRemainingBytes())
            return
        }
        try rule.check(data, structure: code.name)
        parameters = try SignallingParameters(parsing: &data, code: code)
    }
}

/// Every command of a signalling C-frame (a BR/EDR C-frame may carry several).
public struct SignallingPDU: Sendable, Equatable {
    public var commands: [SignallingCommand]

    public init(commands: [SignallingCommand]) { self.commands = commands }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        commands = []
        while !reader.isAtEnd {
            commands.append(try SignallingCommand(parsing: &reader))
        }
    }
}

/// The typed data of a signalling command.
public enum SignallingParameters: Sendable, Equatable {
    case commandReject(reason: CommandRejectReason, data: [UInt8])
    case disconnectionRequest(ChannelPair)
    case disconnectionResponse(ChannelPair)
    case connectionParameterUpdateRequest(ConnectionParameterUpdateRequest)
    case connectionParameterUpdateResponse(result: ConnectionParameterUpdateResult)
    case leCreditBasedConnectionRequest(LECreditBasedConnectionRequest)
    case leCreditBasedConnectionResponse(LECreditBasedConnectionResponse)
    case flowControlCreditIndication(channelID: ChannelID, credits: UInt16)
    case creditBasedConnectionRequest(CreditBasedConnectionRequest)
    case creditBasedConnectionResponse(CreditBasedConnectionResponse)
    case creditBasedReconfigureRequest(CreditBasedReconfigureRequest)
    case creditBasedReconfigureResponse(result: CreditBasedReconfigureResult)
    /// A code without a typed decoder here (BR/EDR-only, unknown): the data as carried.
    case raw([UInt8])

    /// `data` holds exactly the command's data, already checked against `code.dataLength`.
    init(parsing data: inout ByteReader, code: SignallingCode) throws(DecodeError) {
        switch code {
        case .commandReject:
            // §4.1: reason, then 0, 2 or 4 bytes of reason-specific data.
            self = .commandReject(reason: CommandRejectReason(rawValue: try data.readUInt16LE("reason")),
                                  data: data.readRemainingBytes())
        case .disconnectionRequest:
            self = .disconnectionRequest(try ChannelPair(parsing: &data))
        case .disconnectionResponse:
            self = .disconnectionResponse(try ChannelPair(parsing: &data))
        case .connectionParameterUpdateRequest:
            self = .connectionParameterUpdateRequest(try ConnectionParameterUpdateRequest(parsing: &data))
        case .connectionParameterUpdateResponse:
            self = .connectionParameterUpdateResponse(
                result: ConnectionParameterUpdateResult(rawValue: try data.readUInt16LE("result")))
        case .leCreditBasedConnectionRequest:
            self = .leCreditBasedConnectionRequest(try LECreditBasedConnectionRequest(parsing: &data))
        case .leCreditBasedConnectionResponse:
            self = .leCreditBasedConnectionResponse(try LECreditBasedConnectionResponse(parsing: &data))
        case .flowControlCreditIndication:
            self = .flowControlCreditIndication(channelID: ChannelID(rawValue: try data.readUInt16LE("CID")),
                                                credits: try data.readUInt16LE("credits"))
        case .creditBasedConnectionRequest:
            self = .creditBasedConnectionRequest(try CreditBasedConnectionRequest(parsing: &data))
        case .creditBasedConnectionResponse:
            self = .creditBasedConnectionResponse(try CreditBasedConnectionResponse(parsing: &data))
        case .creditBasedReconfigureRequest:
            self = .creditBasedReconfigureRequest(try CreditBasedReconfigureRequest(parsing: &data))
        case .creditBasedReconfigureResponse:
            self = .creditBasedReconfigureResponse(
                result: CreditBasedReconfigureResult(rawValue: try data.readUInt16LE("result")))
        default:
            self = .raw(data.readRemainingBytes())
        }
    }
}
