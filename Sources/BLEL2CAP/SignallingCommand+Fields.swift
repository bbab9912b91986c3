import BLEBase

extension SignallingCommand: FieldDescribable {
    public var fields: [Field] {
        [.code("code", code.rawValue, label: code.name), .string("codeName", code.name),
         .int("identifier", identifier)] + parameters.fields
    }
}

extension SignallingPDU: FieldDescribable {
    public var fields: [Field] {
        [Field("commands", .list(commands.map { .object($0.fields) }))]
    }
}

extension SignallingParameters {
    var fields: [Field] {
        switch self {
        case let .commandReject(reason, data):
            return [.code("reason", reason.rawValue, width: 4, label: reason.name), .bytes("data", data)]
        case let .disconnectionRequest(pair), let .disconnectionResponse(pair):
            return [cidField("destinationCid", pair.destinationCID), cidField("sourceCid", pair.sourceCID)]
        case let .connectionParameterUpdateRequest(r):
            return [.int("intervalMin", r.intervalMin, display: "\(r.intervalMinUs) µs"),
                    .int("intervalMax", r.intervalMax, display: "\(r.intervalMaxUs) µs"),
                    .int("latency", r.latency),
                    .int("timeout", r.timeoutMultiplier, display: "\(r.timeoutMs) ms")]
        case let .connectionParameterUpdateResponse(result):
            return [.code("result", result.rawValue, width: 4, label: result.name)]
        case let .leCreditBasedConnectionRequest(r):
            return [.code("spsm", r.spsm, width: 4), cidField("sourceCid", r.sourceCID), .int("mtu", r.mtu),
                    .int("mps", r.mps), .int("initialCredits", r.initialCredits)]
        case let .leCreditBasedConnectionResponse(r):
            return [cidField("destinationCid", r.destinationCID), .int("mtu", r.mtu), .int("mps", r.mps),
                    .int("initialCredits", r.initialCredits),
                    .code("result", r.result.rawValue, width: 4, label: r.result.name)]
        case let .flowControlCreditIndication(channelID, credits):
            return [cidField("cid", channelID), .int("credits", credits)]
        case let .creditBasedConnectionRequest(r):
            return [.code("spsm", r.spsm, width: 4), .int("mtu", r.mtu), .int("mps", r.mps),
                    .int("initialCredits", r.initialCredits), cidList("sourceCids", r.sourceCIDs)]
        case let .creditBasedConnectionResponse(r):
            return [.int("mtu", r.mtu), .int("mps", r.mps), .int("initialCredits", r.initialCredits),
                    .code("result", r.result.rawValue, width: 4, label: r.result.name),
                    cidList("destinationCids", r.destinationCIDs)]
        case let .creditBasedReconfigureRequest(r):
            return [.int("mtu", r.mtu), .int("mps", r.mps), cidList("destinationCids", r.destinationCIDs)]
        case let .creditBasedReconfigureResponse(result):
            return [.code("result", result.rawValue, width: 4, label: result.name)]
        case let .raw(data):
            return [.bytes("data", data)]
        }
    }
}

/// A CID shown as `0x0040`, fixed channels with their name (`ATT (0x0004)`).
private func cidField(_ name: String, _ id: ChannelID) -> Field {
    .code(name, id.rawValue, width: 4, label: id.isDynamic ? nil : id.name)
}

private func cidList(_ name: String, _ ids: [ChannelID]) -> Field {
    Field(name, .list(ids.map { .int(Int64($0.rawValue)) }))
}
