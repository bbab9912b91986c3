import BLEBase

extension SignallingCommand {
    /// One line, e.g. `L2CAP Connection Parameter Update Request interval 7.50–15.00 ms latency 0
    /// timeout 4000 ms`.
    public var summary: String {
        let detail = parameters.summaryDetail
        return detail.isEmpty ? "L2CAP \(code.name)" : "L2CAP \(code.name) \(detail)"
    }
}

extension SignallingPDU {
    /// The commands' summaries joined with `; `.
    public var summary: String { commands.map(\.summary).joined(separator: "; ") }
}

extension SignallingParameters {
    var summaryDetail: String {
        switch self {
        case let .commandReject(reason, _):
            return "reason \(reason.name)"
        case let .disconnectionRequest(pair), let .disconnectionResponse(pair):
            return "dcid \(cid(pair.destinationCID)) scid \(cid(pair.sourceCID))"
        case let .connectionParameterUpdateRequest(r):
            return "interval \(milliseconds(r.intervalMinUs))–\(milliseconds(r.intervalMaxUs)) ms"
                + " latency \(r.latency) timeout \(r.timeoutMs) ms"
        case let .connectionParameterUpdateResponse(result):
            return "result \(result.name)"
        case let .leCreditBasedConnectionRequest(r):
            return "SPSM \(Hex.code(r.spsm, width: 4)) scid \(cid(r.sourceCID)) MTU \(r.mtu) MPS \(r.mps)"
                + " credits \(r.initialCredits)"
        case let .leCreditBasedConnectionResponse(r):
            return "dcid \(cid(r.destinationCID)) MTU \(r.mtu) MPS \(r.mps) credits \(r.initialCredits)"
                + " result \(r.result.name)"
        case let .flowControlCreditIndication(channelID, credits):
            return "cid \(cid(channelID)) credits \(credits)"
        case let .creditBasedConnectionRequest(r):
            return "SPSM \(Hex.code(r.spsm, width: 4)) MTU \(r.mtu) MPS \(r.mps) credits \(r.initialCredits)"
                + " scids \(cids(r.sourceCIDs))"
        case let .creditBasedConnectionResponse(r):
            return "MTU \(r.mtu) MPS \(r.mps) credits \(r.initialCredits) result \(r.result.name)"
                + " dcids \(cids(r.destinationCIDs))"
        case let .creditBasedReconfigureRequest(r):
            return "MTU \(r.mtu) MPS \(r.mps) dcids \(cids(r.destinationCIDs))"
        case let .creditBasedReconfigureResponse(result):
            return "result \(result.name)"
        case let .raw(data):
            return data.isEmpty ? "" : "\(data.count) bytes"
        }
    }
}

private func cid(_ id: ChannelID) -> String { Hex.code(id.rawValue, width: 4) }

private func cids(_ ids: [ChannelID]) -> String { ids.map(cid).joined(separator: ",") }

/// `7.50` for 7500 µs: two decimals, no floating point.
private func milliseconds(_ us: Int) -> String {
    let hundredths = us / 10
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
