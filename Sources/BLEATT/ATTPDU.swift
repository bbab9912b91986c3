import BLEBase

/// One ATT PDU: the opcode and its typed parameters (Core v5.4 Vol 3 Part F §3.3.1).
///
/// ```
/// 0        1
/// +--------+--------------------------------------------+---------------------------+
/// | opcode | parameters                                 | signature (bit 7 set: 12) |
/// +--------+--------------------------------------------+---------------------------+
///   u8       0 ... ATT_MTU − 1 (− 12) bytes
/// ```
public struct ATTPDU: Sendable, Equatable {
    public var opcode: ATTOpcode
    public var parameters: ATTParameters

    public init(opcode: ATTOpcode, parameters: ATTParameters) {
        self.opcode = opcode
        self.parameters = parameters
    }

    /// Reads the opcode and the rest of `reader` as its parameters. A known opcode's
    /// parameters are size-checked against `ATTOpcode.parameterLength` first; unknown opcodes
    /// keep their bytes raw. When this throws, `peekOpcode` still names the PDU.
    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        opcode = ATTOpcode(rawValue: try reader.readUInt8("ATT opcode"))
        // The parameters are the rest of `reader`, read in place (a slice of it would cost a
        // reference count per PDU).
        reader.layer = .att
        guard let rule = opcode.parameterLength else {
            parameters = .unknown(rawParameters: reader.readRemainingBytes())
            return
        }
        if !rule.accepts(reader.remaining) { try rule.check(reader, structure: opcode.name) }
        parameters = try ATTParameters(parsing: &reader, opcode: opcode)
    }

    /// The opcode of the PDU `reader` starts with, without decoding it: lets the pipeline count a
    /// PDU by opcode even when its parameters are malformed. Nil for an empty buffer.
    public static func peekOpcode(_ reader: ByteReader) -> ATTOpcode? {
        (try? reader.peekUInt8("ATT opcode")).map(ATTOpcode.init(rawValue:))
    }

    /// The attribute the PDU is about: its handle, or the start handle of a range. Nil for PDUs
    /// that carry none or a list.
    public var handle: UInt16? {
        switch parameters {
        case let .errorResponse(e): return e.handle
        case let .findInformationRequest(r): return r.startHandle
        case let .findByTypeValueRequest(r): return r.range.startHandle
        case let .readByTypeRequest(r), let .readByGroupTypeRequest(r): return r.range.startHandle
        case let .readRequest(handle): return handle
        case let .readBlobRequest(handle, _): return handle
        case let .writeRequest(hv), let .handleValueNotification(hv), let .handleValueIndication(hv),
             let .writeCommand(hv):
            return hv.handle
        case let .prepareWriteRequest(p), let .prepareWriteResponse(p): return p.handle
        case let .signedWriteCommand(s): return s.handle
        case .exchangeMTURequest, .exchangeMTUResponse, .findInformationResponse, .findByTypeValueResponse,
             .readByTypeResponse, .readResponse, .readBlobResponse, .readMultipleRequest, .readMultipleResponse,
             .readByGroupTypeResponse, .writeResponse, .executeWriteRequest, .executeWriteResponse,
             .handleValueConfirmation, .readMultipleVariableRequest, .readMultipleVariableResponse,
             .multipleHandleValueNotification, .unknown:
            return nil
        }
    }

    /// The attribute value (or part of one) the PDU carries.
    public var value: ByteView? {
        switch parameters {
        case let .findByTypeValueRequest(r): return ByteView(r.value)
        case let .readResponse(value), let .readBlobResponse(value), let .readMultipleResponse(value):
            return ByteView(value)
        case let .writeRequest(hv), let .handleValueNotification(hv), let .handleValueIndication(hv),
             let .writeCommand(hv):
            return hv.value
        case let .prepareWriteRequest(p), let .prepareWriteResponse(p): return ByteView(p.value)
        case let .signedWriteCommand(s): return ByteView(s.value)
        case .errorResponse, .exchangeMTURequest, .exchangeMTUResponse, .findInformationRequest,
             .findInformationResponse, .findByTypeValueResponse, .readByTypeRequest, .readByTypeResponse,
             .readRequest, .readBlobRequest, .readMultipleRequest, .readByGroupTypeRequest,
             .readByGroupTypeResponse, .writeResponse, .executeWriteRequest, .executeWriteResponse,
             .handleValueConfirmation, .readMultipleVariableRequest, .readMultipleVariableResponse,
             .multipleHandleValueNotification, .unknown:
            return nil
        }
    }
}
