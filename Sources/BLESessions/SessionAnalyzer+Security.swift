import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEL2CAP
import BLEPacketDecoding

/// What a link's security is doing while it is up: the pairing in progress, the Security Request
/// not yet answered, ATT errors that asked for security and wait to say what followed.
struct SecurityState {
    /// Index in `connection.security.pairings` of the pairing in progress.
    var pairing: Int?
    var pairingRequest: SMPPairingFeatures?
    /// Index in `connection.security.securityRequests` of the request nothing answered yet.
    var securityRequest: Int?
    /// Indices in the analyzer's `failures` of ATT errors for missing security (bounded).
    var awaiting: [Int] = []
    /// A Long Term Key Request answered negatively: the failed Encryption Change that may follow
    /// is the same failure.
    var keyRefused = false
    /// BR/EDR authentication and Secure Simple Pairing in progress.
    var classic = ClassicSecurityState()
}

/// Pairing (SMP, Core v5.4 Vol 3 Part H §2.3, §3.5–3.6) and encryption (HCI Encryption Change,
/// Key Refresh, LTK Request replies, Vol 4 Part E §7.7.8, §7.7.39, §7.8.25–26; over the air
/// LL_ENC_REQ … LL_START_ENC_*, LL_PAUSE_ENC_*, Vol 6 Part B §5.1.3) per connection.
extension SessionAnalyzer {
    static let awaitingCap = 16

    /// Who sent a PDU, in the summaries' word (the JSON's `sentBy`): `host`/`device` over HCI
    /// (the capture's host, its peer), `central`/`peripheral` over the air.
    static func side(_ direction: Direction) -> String {
        switch direction {
        case .sent: "host"
        case .received: "device"
        default: party(direction)
        }
    }

    /// The security records' side (`initiator`, `from`, `failedBy`): `local`/`remote` over HCI,
    /// `central`/`peripheral` over the air.
    static func party(_ direction: Direction) -> String {
        switch direction {
        case .sent: "local"
        case .received: "remote"
        case .centralToPeripheral: "central"
        case .peripheralToCentral: "peripheral"
        case .unknown: "unknown"
        }
    }

    /// `The device's`, `The host's`, `The peripheral's`.
    static func whose(_ side: String) -> String {
        let who = ConnectionSecurity.spoken(side)
        return "T" + who.dropFirst() + "'s"
    }

    mutating func handleSMP(_ smp: SMPCommand, link: LinkID, direction: Direction, record: CaptureRecord) {
        guard let conn = live[link] else { return }
        let now = record.timestampUs
        switch smp.parameters {
        case .securityRequest(let auth):
            if let pending = conn.securityState.securityRequest { securityRequestIgnored(pending, in: conn) }
            conn.connection.security.securityRequests.append(SecurityRequest(
                outcome: .ignored, from: Self.party(direction), timeUs: now, record: record.index, bonding: auth.bonding, mitm: auth.mitm,
                secureConnections: auth.secureConnections))
            conn.securityState.securityRequest = conn.connection.security.securityRequests.count - 1
        case .pairingRequest(let features):
            answerSecurityRequest(in: conn, with: .pairing)
            followed(in: conn, by: "pairing started", timeUs: now)
            conn.connection.security.pairings.append(Pairing(
                initiator: Self.party(direction), startUs: now, startRecord: record.index, endUs: nil, method: .unknown,
                secureConnections: features.authReq.secureConnections, bonding: features.authReq.bonding,
                mitm: features.authReq.mitm, initiatorIOCapability: features.ioCapability.name, responderIOCapability: nil,
                keySize: nil, initiatorKeys: [], responderKeys: [], result: .incomplete, reasonCode: nil, reasonName: nil,
                failedBy: nil))
            conn.securityState.pairing = conn.connection.security.pairings.count - 1
            conn.securityState.pairingRequest = features
        case .pairingResponse(let response):
            guard let index = conn.securityState.pairing, let request = conn.securityState.pairingRequest else { return }
            let sc = request.authReq.secureConnections && response.authReq.secureConnections
            conn.connection.security.pairings[index].secureConnections = sc
            conn.connection.security.pairings[index].bonding = request.authReq.bonding && response.authReq.bonding
            conn.connection.security.pairings[index].mitm = request.authReq.mitm || response.authReq.mitm
            conn.connection.security.pairings[index].responderIOCapability = response.ioCapability.name
            conn.connection.security.pairings[index].method = Self.method(request, response, secureConnections: sc)
            conn.connection.security.pairings[index].keySize
                = Int(min(request.maxEncryptionKeySize, response.maxEncryptionKeySize))
            // §3.6.1: the responder's distribution fields are what both agreed.
            conn.connection.security.pairings[index].initiatorKeys = response.initiatorKeyDistribution.names
            conn.connection.security.pairings[index].responderKeys = response.responderKeyDistribution.names
        case .pairingFailed(let reason):
            pairingFailed(reason, in: conn, direction: direction, record: record)
        case .encryptionInformation, .centralIdentification, .identityInformation, .identityAddressInformation,
             .signingInformation:
            // Keys distributed after encryption started: the pairing ends with the last of them.
            if let index = conn.connection.security.pairings.indices.last,
               conn.connection.security.pairings[index].result == .success {
                conn.connection.security.pairings[index].endUs = now
            }
        default:
            break
        }
    }

    /// The pairing method (Core v5.4 Vol 3 Part H §2.3.5.1, tables 2.6–2.8): OOB when the OOB
    /// flags say so, Just Works when neither side asks for MITM protection, else by IO
    /// capabilities.
    static func method(_ request: SMPPairingFeatures, _ response: SMPPairingFeatures,
                       secureConnections: Bool) -> Pairing.Method {
        let oob = secureConnections ? (request.oobDataFlag == 1 || response.oobDataFlag == 1)
            : (request.oobDataFlag == 1 && response.oobDataFlag == 1)
        if oob { return .oob }
        guard request.authReq.mitm || response.authReq.mitm else { return .justWorks }
        let (a, b) = (request.ioCapability.rawValue, response.ioCapability.rawValue)
        guard a <= 4, b <= 4 else { return .unknown }
        if a == 3 || b == 3 { return .justWorks }
        let pair = Set([a, b])
        switch pair {
        case [0], [0, 1]: return .justWorks
        case [1]: return secureConnections ? .numericComparison : .justWorks
        case [1, 4], [4]: return secureConnections ? .numericComparison : .passkeyEntry
        default: return .passkeyEntry
        }
    }

    mutating func pairingFailed(_ reason: SMPPairingFailedReason, in conn: LiveConnection, direction: Direction,
                                record: CaptureRecord) {
        let now = record.timestampUs
        let by = Self.party(direction), sentBy = Self.side(direction)
        let why = "\(reason.name) (\(Hex.code(reason.rawValue)))"
        let summary: String
        if let index = conn.securityState.pairing {
            conn.connection.security.pairings[index].result = .failed
            conn.connection.security.pairings[index].endUs = now
            conn.connection.security.pairings[index].reasonCode = Int(reason.rawValue)
            conn.connection.security.pairings[index].reasonName = reason.name
            conn.connection.security.pairings[index].failedBy = by
            let pairing = conn.connection.security.pairings[index]
            summary = "Pairing failed: \(why), sent by \(ConnectionSecurity.spoken(by)) "
                + "\(Self.seconds(now - pairing.startUs)) after the Pairing Request"
                + (pairing.method == .unknown ? "" : " (\(Self.describe(pairing)))")
            conn.securityState.pairing = nil
        } else if let pending = conn.securityState.securityRequest {
            // Refusing a Security Request is allowed (Core v5.4 Vol 3 Part H §2.4.6) and no pairing
            // ran: nothing failed that the device asked for beyond the request itself.
            let request = conn.connection.security.securityRequests[pending]
            answerSecurityRequest(in: conn, with: .rejected)
            followed(in: conn, by: "pairing refused", timeUs: now)
            fail(.securityRequestRejected, severity: .warning, at: now, record: record.index, slot: conn.slot,
                 connection: conn.connection.id,
                 "\(Self.whose(request.from)) Security Request was refused with Pairing Failed: \(why), "
                    + "sent by \(ConnectionSecurity.spoken(by)); "
                    + "no pairing ran",
                 details: [.int("reasonCode", reason.rawValue), .string("reasonName", reason.name), .string("sentBy", sentBy),
                           .int("requestRecord", request.record)])
            return
        } else {
            // A pairing whose start the capture lacks.
            summary = "Pairing failed: \(why), sent by \(ConnectionSecurity.spoken(by))"
        }
        followed(in: conn, by: "pairing failed", timeUs: now)
        fail(.pairingFailed, at: now, record: record.index, slot: conn.slot, connection: conn.connection.id, summary,
             details: [.int("reasonCode", reason.rawValue), .string("reasonName", reason.name), .string("sentBy", sentBy)])
    }

    /// `LE Secure Connections, numeric comparison, bonding`.
    static func describe(_ pairing: Pairing) -> String {
        [pairing.secureConnections ? "LE Secure Connections" : "legacy", pairing.method.rawValue.replacing("-", with: " "),
         pairing.bonding ? "bonding" : "no bonding"].joined(separator: ", ")
    }

    mutating func answerSecurityRequest(in conn: LiveConnection, with outcome: SecurityRequest.Outcome) {
        guard let index = conn.securityState.securityRequest else { return }
        conn.connection.security.securityRequests[index].outcome = outcome
        conn.securityState.securityRequest = nil
    }

    mutating func securityRequestIgnored(_ index: Int, in conn: LiveConnection) {
        let request = conn.connection.security.securityRequests[index]
        conn.securityState.securityRequest = nil
        fail(.securityRequestIgnored, severity: .warning, at: request.timeUs, record: request.record, slot: conn.slot,
             connection: conn.connection.id,
             "\(Self.whose(request.from)) Security Request (\(request.bonding ? "bonding" : "no bonding")\(request.mitm ? ", MITM" : "")) "
                + "was ignored: neither pairing nor encryption followed")
    }

    /// An encryption start, refresh or pause, from HCI or the link layer; a failed start is a
    /// failure (0x06 PIN or Key Missing: one side lost the bond).
    mutating func encryptionChanged(in conn: LiveConnection, kind: EncryptionEvent.Kind, status: UInt8, statusName: String,
                                    keySize: Int?, source: String, record: CaptureRecord) {
        let now = record.timestampUs
        conn.connection.security.encryption.append(EncryptionEvent(
            timeUs: now, record: record.index, kind: kind, status: Int(status), statusName: statusName, source: source,
            keySize: keySize))
        guard kind == .start else { return }
        if status == 0 {
            conn.connection.encrypted = true
            conn.securityState.keyRefused = false
            answerSecurityRequest(in: conn, with: .encryption)
            if let index = conn.securityState.pairing, conn.connection.security.pairings[index].method != .unknown {
                pairingSucceeded(index, in: conn, at: now)
            }
            followed(in: conn, by: "encryption started", timeUs: now)
            return
        }
        if conn.securityState.keyRefused {
            conn.securityState.keyRefused = false
            return
        }
        followed(in: conn, by: "encryption failed", timeUs: now)
        let hint = status == 0x06 ? " (one side has no key for the other: the bond was lost, e.g. after an app reinstall or a reset)" : ""
        fail(.encryptionFailed, at: now, record: record.index, slot: conn.slot, connection: conn.connection.id,
             "Encryption failed to start: \(statusName) (\(Hex.code(status)))" + hint,
             details: [.int("status", status), .string("statusName", statusName), .string("source", source)])
    }

    /// LE Long Term Key Request Negative Reply (§7.8.26): the peripheral's host has no key for
    /// the central's request; the link layer rejects it with 0x06 PIN or Key Missing.
    mutating func longTermKeyRefused(in conn: LiveConnection, record: CaptureRecord) {
        let status = HCIStatus(rawValue: 0x06)
        conn.connection.security.encryption.append(EncryptionEvent(
            timeUs: record.timestampUs, record: record.index, kind: .start, status: 0x06, statusName: status.name,
            source: "hci-ltk-negative-reply", keySize: nil))
        followed(in: conn, by: "encryption failed", timeUs: record.timestampUs)
        fail(.encryptionFailed, at: record.timestampUs, record: record.index, slot: conn.slot, connection: conn.connection.id,
             "Encryption failed to start: the host answered the Long Term Key Request negatively, it has no key for "
                + "this device (the bond was lost on this side, or never made)",
             details: [.int("status", 0x06), .string("statusName", status.name), .string("source", "hci-ltk-negative-reply")])
        // The Encryption Change with 0x06 that may follow on this side is the same failure.
        conn.securityState.keyRefused = true
    }

    /// An ATT error asking for security: it waits to say what followed on its link.
    mutating func awaitSecurity(failureIndex: Int, in conn: LiveConnection) {
        guard conn.securityState.awaiting.count < Self.awaitingCap else { return }
        conn.securityState.awaiting.append(failureIndex)
    }

    /// Tells the ATT errors waiting on this link what followed them.
    mutating func followed(in conn: LiveConnection, by what: String, timeUs: Int64) {
        guard !conn.securityState.awaiting.isEmpty else { return }
        for index in conn.securityState.awaiting where index < failures.count {
            failures[index].summary += "; then \(what) \(Self.seconds(timeUs - failures[index].timeUs)) later"
            failures[index].details.append(.string("followedBy", what))
        }
        conn.securityState.awaiting.removeAll()
    }

    /// The link ends: a pairing in progress is incomplete, an unanswered Security Request
    /// ignored, and ATT errors still waiting were followed by nothing.
    mutating func closeSecurity(_ conn: LiveConnection) {
        if let pending = conn.securityState.securityRequest { securityRequestIgnored(pending, in: conn) }
        conn.securityState.pairing = nil
        let end = conn.connection.endUs == nil ? "the capture ended" : "the link ended"
        for index in conn.securityState.awaiting where index < failures.count {
            failures[index].summary += "; then nothing: no pairing or encryption before \(end)"
            failures[index].details.append(.string("followedBy", "nothing"))
        }
        conn.securityState.awaiting.removeAll()
    }

    /// The pairing at `index` ended well at `timeUs`: it is no longer in progress.
    func pairingSucceeded(_ index: Int, in conn: LiveConnection, at timeUs: Int64) {
        conn.connection.security.pairings[index].result = .success
        conn.connection.security.pairings[index].endUs = timeUs
        conn.securityState.pairing = nil
    }
}
