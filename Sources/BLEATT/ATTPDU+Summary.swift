import BLEBase

extension ATTPDU {
    /// One line, like a Wireshark Info column: `Write Request handle 0x0010 value aa0159`,
    /// `Error Response to Read By Group Type Request handle 0x0018: Attribute Not Found (0x0A)`.
    public var summary: String { summary(valueLimit: defaultSummaryValueLimit) }

    /// The summary with values cut after `valueLimit` bytes (`.max`: whole).
    public func summary(valueLimit: Int) -> String {
        let detail = parameters.summaryDetail(valueLimit: valueLimit)
        switch parameters {
        case .errorResponse: return "\(opcode.name)\(detail)"
        default: return detail.isEmpty ? opcode.name : "\(opcode.name) \(detail)"
        }
    }
}

extension ATTParameters {
    func summaryDetail(valueLimit: Int) -> String {
        func valueText<Bytes: Collection<UInt8>>(_ value: Bytes) -> String { BLEATT.valueText(value, limit: valueLimit) }
        switch self {
        case let .errorResponse(e):
            return " to \(e.requestOpcode.name) handle \(handleText(e.handle)): \(e.errorCode.name) (\(Hex.code(e.errorCode.rawValue)))"
        case let .exchangeMTURequest(mtu): return "client Rx MTU \(mtu)"
        case let .exchangeMTUResponse(mtu): return "server Rx MTU \(mtu)"
        case let .findInformationRequest(range): return rangeText(range)
        case let .findInformationResponse(r): return count(r.attributes.count, "attribute")
        case let .findByTypeValueRequest(r):
            return "\(rangeText(r.range)) type \(r.attributeType) value \(valueText(r.value))"
        case let .findByTypeValueResponse(entries): return count(entries.count, "handle range")
        case let .readByTypeRequest(r), let .readByGroupTypeRequest(r):
            return "\(rangeText(r.range)) type \(r.attributeType)"
        case let .readByTypeResponse(r): return count(r.attributes.count, "attribute")
        case let .readRequest(handle): return "handle \(handleText(handle))"
        case let .readResponse(value), let .readBlobResponse(value), let .readMultipleResponse(value):
            return "value \(valueText(value))"
        case let .readBlobRequest(handle, offset): return "handle \(handleText(handle)) offset \(offset)"
        case let .readMultipleRequest(handles), let .readMultipleVariableRequest(handles):
            return "handles \(handles.map(handleText).joined(separator: ","))"
        case let .readByGroupTypeResponse(r): return count(r.groups.count, "group")
        case let .writeRequest(hv), let .handleValueNotification(hv), let .handleValueIndication(hv),
             let .writeCommand(hv):
            return "handle \(handleText(hv.handle)) value \(valueText(hv.value))"
        case let .prepareWriteRequest(p), let .prepareWriteResponse(p):
            return "handle \(handleText(p.handle)) offset \(p.offset) value \(valueText(p.value))"
        case let .executeWriteRequest(flags): return flags.name
        case .writeResponse, .executeWriteResponse, .handleValueConfirmation: return ""
        case let .readMultipleVariableResponse(tuples): return count(tuples.count, "value")
        case let .multipleHandleValueNotification(tuples):
            return "handles \(tuples.map { handleText($0.handle) }.joined(separator: ","))"
        case let .signedWriteCommand(s): return "handle \(handleText(s.handle)) value \(valueText(s.value))"
        case let .unknown(raw): return raw.isEmpty ? "" : count(raw.count, "byte")
        }
    }
}

/// Values longer than this many bytes are cut in summaries and end in `…`.
private let defaultSummaryValueLimit = 32

private func valueText<Bytes: Collection<UInt8>>(_ value: Bytes, limit: Int) -> String {
    guard !value.isEmpty else { return "(empty)" }
    let shown = Hex.string(value.prefix(limit))
    return value.count > limit ? shown + "…" : shown
}

private func handleText(_ handle: UInt16) -> String { Hex.code(handle, width: 4) }

private func rangeText(_ range: ATTHandleRange) -> String {
    "handles \(handleText(range.startHandle))–\(handleText(range.endHandle))"
}

private func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
