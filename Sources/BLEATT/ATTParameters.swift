import BLEBase

/// The typed parameters of every ATT PDU Core v5.4 defines (Vol 3 Part F §3.4), one case each.
public enum ATTParameters: Sendable, Equatable {
    case errorResponse(ATTErrorResponse)
    case exchangeMTURequest(clientRxMTU: UInt16)
    case exchangeMTUResponse(serverRxMTU: UInt16)
    case findInformationRequest(ATTHandleRange)
    case findInformationResponse(ATTFindInformationResponse)
    case findByTypeValueRequest(ATTFindByTypeValueRequest)
    case findByTypeValueResponse([ATTHandlesInformation])
    case readByTypeRequest(ATTTypeRangeRequest)
    case readByTypeResponse(ATTReadByTypeResponse)
    case readRequest(handle: UInt16)
    case readResponse(value: [UInt8])
    case readBlobRequest(handle: UInt16, offset: UInt16)
    case readBlobResponse(partValue: [UInt8])
    case readMultipleRequest(handles: [UInt16])
    /// The values concatenated: their boundaries are not on the wire.
    case readMultipleResponse(values: [UInt8])
    case readByGroupTypeRequest(ATTTypeRangeRequest)
    case readByGroupTypeResponse(ATTReadByGroupTypeResponse)
    case writeRequest(ATTHandleValue)
    case writeResponse
    case prepareWriteRequest(ATTPrepareWrite)
    case prepareWriteResponse(ATTPrepareWrite)
    case executeWriteRequest(flags: ATTExecuteWriteFlags)
    case executeWriteResponse
    case handleValueNotification(ATTHandleValue)
    case handleValueIndication(ATTHandleValue)
    case handleValueConfirmation
    case readMultipleVariableRequest(handles: [UInt16])
    case readMultipleVariableResponse([ATTLengthValue])
    case multipleHandleValueNotification([ATTHandleLengthValue])
    case writeCommand(ATTHandleValue)
    case signedWriteCommand(ATTSignedWrite)
    /// An opcode Core v5.4 does not define: the parameters as carried.
    case unknown(rawParameters: [UInt8])

    /// `reader` holds exactly the parameters, already checked against `opcode.parameterLength`.
    init(parsing reader: inout ByteReader, opcode: ATTOpcode) throws(DecodeError) {
        switch opcode {
        case .errorResponse: self = .errorResponse(try ATTErrorResponse(parsing: &reader))
        case .exchangeMTURequest: self = .exchangeMTURequest(clientRxMTU: try reader.readUInt16LE("client Rx MTU"))
        case .exchangeMTUResponse: self = .exchangeMTUResponse(serverRxMTU: try reader.readUInt16LE("server Rx MTU"))
        case .findInformationRequest: self = .findInformationRequest(try ATTHandleRange(parsing: &reader))
        case .findInformationResponse: self = .findInformationResponse(try ATTFindInformationResponse(parsing: &reader))
        case .findByTypeValueRequest: self = .findByTypeValueRequest(try ATTFindByTypeValueRequest(parsing: &reader))
        case .findByTypeValueResponse:
            self = .findByTypeValueResponse(try ATTHandlesInformation.list(parsing: &reader))
        case .readByTypeRequest: self = .readByTypeRequest(try ATTTypeRangeRequest(parsing: &reader))
        case .readByTypeResponse: self = .readByTypeResponse(try ATTReadByTypeResponse(parsing: &reader))
        case .readRequest: self = .readRequest(handle: try reader.readUInt16LE("attribute handle"))
        case .readResponse: self = .readResponse(value: reader.readRemainingBytes())
        case .readBlobRequest:
            self = .readBlobRequest(handle: try reader.readUInt16LE("attribute handle"),
                                    offset: try reader.readUInt16LE("value offset"))
        case .readBlobResponse: self = .readBlobResponse(partValue: reader.readRemainingBytes())
        case .readMultipleRequest: self = .readMultipleRequest(handles: try readHandleSet(&reader))
        case .readMultipleResponse: self = .readMultipleResponse(values: reader.readRemainingBytes())
        case .readByGroupTypeRequest: self = .readByGroupTypeRequest(try ATTTypeRangeRequest(parsing: &reader))
        case .readByGroupTypeResponse:
            self = .readByGroupTypeResponse(try ATTReadByGroupTypeResponse(parsing: &reader))
        case .writeRequest: self = .writeRequest(try ATTHandleValue(parsing: &reader))
        case .writeResponse: self = .writeResponse
        case .prepareWriteRequest: self = .prepareWriteRequest(try ATTPrepareWrite(parsing: &reader))
        case .prepareWriteResponse: self = .prepareWriteResponse(try ATTPrepareWrite(parsing: &reader))
        case .executeWriteRequest:
            self = .executeWriteRequest(flags: ATTExecuteWriteFlags(rawValue: try reader.readUInt8("flags")))
        case .executeWriteResponse: self = .executeWriteResponse
        case .handleValueNotification: self = .handleValueNotification(try ATTHandleValue(parsing: &reader))
        case .handleValueIndication: self = .handleValueIndication(try ATTHandleValue(parsing: &reader))
        case .handleValueConfirmation: self = .handleValueConfirmation
        case .readMultipleVariableRequest: self = .readMultipleVariableRequest(handles: try readHandleSet(&reader))
        case .readMultipleVariableResponse:
            self = .readMultipleVariableResponse(try ATTLengthValue.list(parsing: &reader))
        case .multipleHandleValueNotification:
            self = .multipleHandleValueNotification(try ATTHandleLengthValue.list(parsing: &reader))
        case .writeCommand: self = .writeCommand(try ATTHandleValue(parsing: &reader))
        case .signedWriteCommand: self = .signedWriteCommand(try ATTSignedWrite(parsing: &reader))
        default: self = .unknown(rawParameters: reader.readRemainingBytes())
        }
    }
}

/// The Set Of Handles of Read Multiple (Variable) Request (§3.4.4.7, §3.4.4.11): two or more
/// u16 handles, so the byte count must be even.
private func readHandleSet(_ reader: inout ByteReader) throws(DecodeError) -> [UInt16] {
    guard reader.remaining % 2 == 0 else {
        throw DecodeError.invalid(layer: reader.layer, field: "set of handles", at: reader.reportedOffset,
                                  reason: "\(reader.remaining) bytes is not a whole number of u16 handles")
    }
    var handles: [UInt16] = []
    while !reader.isAtEnd {
        handles.append(try reader.readUInt16LE("attribute handle"))
    }
    return handles
}
