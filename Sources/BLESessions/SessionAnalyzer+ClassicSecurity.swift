import BLEBase
import BLECaptureFormats
import BLEHCI

/// What a BR/EDR link's authentication is doing: the host's request, its answer to the Link Key
/// Request, both sides' IO capabilities in Secure Simple Pairing.
struct ClassicSecurityState {
    enum LinkKey { case none, sent, refused }
    /// The host sent Authentication Requested and no Authentication Complete answered it yet.
    var authenticationRequested = false
    /// The host's answer to the last Link Key Request (§7.1.10, §7.1.11).
    var linkKey = LinkKey.none
    var localIO: ClassicIOCapability?
    var remoteIO: ClassicIOCapability?
    /// A Simple Pairing Complete failed: the failed Authentication Complete that follows is the same failure.
    var pairingFailed = false
}

/// BR/EDR pairing and authentication from HCI (Core v5.4 Vol 4 Part E): Authentication Requested
/// (§7.1.15) and Authentication Complete (§7.7.6); Link Key Request (§7.7.23) and its replies
/// (§7.1.10–11); Secure Simple Pairing: IO Capability Request/Response (§7.7.40–41) and Reply
/// (§7.1.29), User Confirmation/Passkey/OOB requests (§7.7.42–44, §7.7.48), Simple Pairing
/// Complete (§7.7.45); legacy PIN Code Request (§7.7.22); Link Key Notification (§7.7.24).
/// Encryption Change is shared with LE (SessionAnalyzer+HCI).
extension SessionAnalyzer {
    /// The live BR/EDR link to `address`: the events name the peer, not the handle.
    func classicLink(to address: BluetoothAddress) -> LiveConnection? {
        live.all.values.first { $0.connection.transport == .brEdr && $0.connection.peerAddress == address }
    }

    mutating func handle(_ command: ClassicSecurityCommand, record: CaptureRecord) {
        switch command {
        case .authenticationRequested(let handle):
            live[.hci(adapter: record.adapter, handle: handle)]?.securityState.classic.authenticationRequested = true
        case .linkKeyReply(let address, let hasKey):
            classicLink(to: address)?.securityState.classic.linkKey = hasKey ? .sent : .refused
        case .ioCapabilityReply(let io):
            guard let conn = classicLink(to: io.address) else { return }
            conn.securityState.classic.localIO = io
            startClassicPairing(in: conn, initiator: "local", record: record)
            classicCapabilitiesKnown(in: conn)
        case .ioCapabilityNegativeReply:
            // The host refuses to pair; the Simple Pairing Complete that follows says so.
            break
        }
    }

    mutating func handle(_ event: ClassicSecurityEvent, record: CaptureRecord) {
        switch event {
        case .linkKeyRequest:
            break
        case .ioCapabilityRequest(let address):
            // The local controller asks first on the side that starts the pairing (§5.2.2.6 Vol 3 Part C).
            guard let conn = classicLink(to: address) else { return }
            startClassicPairing(in: conn, initiator: "local", record: record)
        case .ioCapabilityResponse(let io):
            guard let conn = classicLink(to: io.address) else { return }
            conn.securityState.classic.remoteIO = io
            startClassicPairing(in: conn, initiator: conn.securityState.classic.authenticationRequested ? "local" : "remote",
                                record: record)
            classicCapabilitiesKnown(in: conn)
        case .pinCodeRequest(let address):
            guard let conn = classicLink(to: address) else { return }
            startClassicPairing(in: conn, initiator: conn.securityState.classic.authenticationRequested ? "local" : "remote",
                                record: record)
            if let index = conn.securityState.pairing { conn.connection.security.pairings[index].method = .legacyPin }
        case .userConfirmationRequest:
            break
        case .userPasskey(let address):
            setClassicMethod(.passkeyEntry, address: address)
        case .remoteOOBDataRequest(let address):
            setClassicMethod(.oob, address: address)
        case .simplePairingComplete(let status, let address):
            guard let conn = classicLink(to: address), let index = conn.securityState.pairing else { return }
            if status.isSuccess {
                pairingSucceeded(index, in: conn, at: record.timestampUs)
            } else {
                classicPairingFailed(status, in: conn, record: record)
                conn.securityState.classic.pairingFailed = true
            }
        case .linkKeyNotification(let address, let keyType):
            guard let conn = classicLink(to: address),
                  let index = conn.connection.security.pairings.indices.last else { return }
            // Key types (§7.7.24): 0x07/0x08 from P-256 (Secure Connections), 0x04/0x05 from
            // P-192 Secure Simple Pairing, 0x00–0x02 from legacy pairing.
            switch keyType {
            case 0x07, 0x08: conn.connection.security.pairings[index].secureConnections = true
            case 0x00...0x02, 0x04, 0x05: conn.connection.security.pairings[index].secureConnections = false
            default: break
            }
            if conn.securityState.pairing == index, conn.connection.security.pairings[index].method == .legacyPin {
                // Legacy pairing made its key: it succeeded.
                pairingSucceeded(index, in: conn, at: record.timestampUs)
            }
        }
    }

    /// Authentication Complete (§7.7.6): ends a pairing still in progress; a failure with none
    /// in progress is an authentication with the stored link key that failed.
    mutating func authenticationComplete(_ status: HCIStatus, in conn: LiveConnection, record: CaptureRecord) {
        let state = conn.securityState.classic
        conn.securityState.classic.authenticationRequested = false
        conn.securityState.classic.pairingFailed = false
        conn.securityState.classic.linkKey = .none
        if let index = conn.securityState.pairing {
            if status.isSuccess {
                pairingSucceeded(index, in: conn, at: record.timestampUs)
            } else {
                classicPairingFailed(status, in: conn, record: record)
            }
            return
        }
        guard !status.isSuccess, !state.pairingFailed else { return }
        let why = "\(status.name) (\(Hex.code(status.rawValue)))"
        let hint: String
        switch (state.linkKey, status.rawValue) {
        case (.refused, _):
            hint = " after the host answered the Link Key Request negatively: it has no link key for this device "
                + "(the bond was lost on this side, or never made)"
        case (.sent, 0x06):
            hint = " after the host gave its link key: the device has none for the host (it lost the bond, e.g. after a reset)"
        case (.sent, 0x05):
            hint = " after the host gave its link key: the keys differ (one side paired again or was reset)"
        default:
            hint = ""
        }
        followed(in: conn, by: "pairing failed", timeUs: record.timestampUs)
        fail(.pairingFailed, at: record.timestampUs, record: record.index, slot: conn.slot, connection: conn.connection.id,
             "BR/EDR authentication failed: \(why)" + hint,
             details: [.int("reasonCode", status.rawValue), .string("reasonName", status.name),
                       .string("source", "authentication-complete")])
    }

    mutating func startClassicPairing(in conn: LiveConnection, initiator: String, record: CaptureRecord) {
        guard conn.securityState.pairing == nil else { return }
        followed(in: conn, by: "pairing started", timeUs: record.timestampUs)
        conn.connection.security.pairings.append(Pairing(
            initiator: initiator, startUs: record.timestampUs, startRecord: record.index, endUs: nil, method: .unknown,
            secureConnections: false, bonding: false, mitm: false, initiatorIOCapability: nil, responderIOCapability: nil,
            keySize: nil, initiatorKeys: [], responderKeys: [], result: .incomplete, reasonCode: nil, reasonName: nil,
            failedBy: nil))
        conn.securityState.pairing = conn.connection.security.pairings.count - 1
        conn.securityState.classic.pairingFailed = false
    }

    /// Both IO capabilities known: the pairing's method, bonding and MITM.
    mutating func classicCapabilitiesKnown(in conn: LiveConnection) {
        guard let index = conn.securityState.pairing, let local = conn.securityState.classic.localIO,
              let remote = conn.securityState.classic.remoteIO else { return }
        let localStarted = conn.connection.security.pairings[index].initiator == "local"
        let (initiator, responder) = localStarted ? (local, remote) : (remote, local)
        conn.connection.security.pairings[index].initiatorIOCapability = initiator.ioCapabilityName
        conn.connection.security.pairings[index].responderIOCapability = responder.ioCapabilityName
        conn.connection.security.pairings[index].bonding = local.bonding && remote.bonding
        conn.connection.security.pairings[index].mitm = local.mitm || remote.mitm
        if conn.connection.security.pairings[index].method == .unknown {
            conn.connection.security.pairings[index].method = Self.classicMethod(local, remote)
        }
    }

    /// The Secure Simple Pairing method (Core v5.4 Vol 3 Part C §5.2.2.6, table 5.7): OOB when
    /// either side has OOB data, Just Works when neither requires MITM protection or either has
    /// no input and no output, and numeric comparison that confirms itself (DisplayOnly) is
    /// Just Works.
    static func classicMethod(_ a: ClassicIOCapability, _ b: ClassicIOCapability) -> Pairing.Method {
        if a.oobDataPresent != 0 || b.oobDataPresent != 0 { return .oob }
        guard a.mitm || b.mitm else { return .justWorks }
        let (x, y) = (a.ioCapability, b.ioCapability)
        guard x <= 3, y <= 3 else { return .unknown }
        if x == 3 || y == 3 { return .justWorks }
        if x == 2 || y == 2 { return .passkeyEntry }
        return x == 1 && y == 1 ? .numericComparison : .justWorks
    }

    mutating func setClassicMethod(_ method: Pairing.Method, address: BluetoothAddress) {
        guard let conn = classicLink(to: address), let index = conn.securityState.pairing else { return }
        conn.connection.security.pairings[index].method = method
    }

    mutating func classicPairingFailed(_ status: HCIStatus, in conn: LiveConnection, record: CaptureRecord) {
        guard let index = conn.securityState.pairing else { return }
        let now = record.timestampUs
        conn.connection.security.pairings[index].result = .failed
        conn.connection.security.pairings[index].endUs = now
        conn.connection.security.pairings[index].reasonCode = Int(status.rawValue)
        conn.connection.security.pairings[index].reasonName = status.name
        conn.securityState.pairing = nil
        let pairing = conn.connection.security.pairings[index]
        let method = pairing.method == .unknown ? "" : ", " + pairing.method.rawValue.replacing("-", with: " ")
        followed(in: conn, by: "pairing failed", timeUs: now)
        fail(.pairingFailed, at: now, record: record.index, slot: conn.slot, connection: conn.connection.id,
             "BR/EDR pairing failed: \(status.name) (\(Hex.code(status.rawValue))) "
                + "\(Self.seconds(now - pairing.startUs)) after it started "
                + "(started by \(ConnectionSecurity.spoken(pairing.initiator))\(method))",
             details: [.int("reasonCode", status.rawValue), .string("reasonName", status.name)])
    }
}
