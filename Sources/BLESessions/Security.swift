import BLEBase

/// Pairing and encryption on one link, in time order (`connections[].security`).
public struct ConnectionSecurity: Sendable {
    public var pairings: [Pairing] = []
    public var encryption: [EncryptionEvent] = []
    /// The peripheral's SMP Security Requests and what became of each.
    public var securityRequests: [SecurityRequest] = []

    public init() {}

    /// The first encryption start that succeeded, if any: `encrypted` holds from then.
    public var encryptedSinceUs: Int64? {
        encryption.first { $0.kind == .start && $0.status == 0 }?.timeUs
    }

    /// A side as the summaries say it (`the host`, `the device`, `the central`): the security
    /// records' `local`/`remote` and `sentBy`'s `host`/`device` alike.
    public static func spoken(_ side: String) -> String {
        switch side {
        case "local", "host": "the host"
        case "remote", "device": "the device"
        default: "the " + side
        }
    }
}

/// One SMP pairing (Core v5.4 Vol 3 Part H §2.3): from the Pairing Request to the last key
/// distributed, a Pairing Failed, or the end of the link.
public struct Pairing: Sendable {
    public enum Result: String, Sendable { case success, failed, incomplete }
    /// Who sent the Pairing Request: `local` (the capture's host) or `remote` over HCI,
    /// `central` or `peripheral` over the air.
    public var initiator: String
    public var startUs: Int64
    public var startRecord: Int
    public var endUs: Int64?
    /// `just-works`, `passkey-entry`, `numeric-comparison`, `oob`, or `unknown` before the
    /// Pairing Response (§2.3.5.1, tables 2.6–2.8); on BR/EDR also `legacy-pin` (PIN Code Request).
    public enum Method: String, Sendable {
        case justWorks = "just-works", passkeyEntry = "passkey-entry", numericComparison = "numeric-comparison", oob,
             legacyPin = "legacy-pin", unknown
    }
    public var method: Method
    public var secureConnections: Bool
    public var bonding: Bool
    public var mitm: Bool
    public var initiatorIOCapability: String?
    public var responderIOCapability: String?
    public var keySize: Int?
    /// Keys each side distributes (negotiated: both sides' flags ANDed, §3.6.1).
    public var initiatorKeys: [String]
    public var responderKeys: [String]
    public var result: Result
    public var reasonCode: Int?
    public var reasonName: String?
    /// Who sent the Pairing Failed.
    public var failedBy: String?
}

/// An encryption change on a link: started (or failed to), its key refreshed, paused.
public struct EncryptionEvent: Sendable {
    public enum Kind: String, Sendable { case start, refresh, pause }
    public var timeUs: Int64
    public var record: Int?
    public var kind: Kind
    /// 0 for success, else the controller's (or link layer's) error code.
    public var status: Int
    public var statusName: String
    /// `hci` (Encryption Change, Key Refresh Complete, LTK negative reply) or `link-layer`.
    public var source: String
    public var keySize: Int?
}

/// A peripheral's Security Request (§3.6.7) and what followed it.
public struct SecurityRequest: Sendable {
    /// `pairing` (a Pairing Request followed), `encryption` (the central encrypted with a key it
    /// had), `rejected` (Pairing Failed answered it), `ignored` (nothing followed before the
    /// next request or the end of the link).
    public enum Outcome: String, Sendable { case pairing, encryption, rejected, ignored }
    public var outcome: Outcome
    /// Who sent it: `remote` or `local` over HCI, `peripheral` over the air.
    public var from: String
    public var timeUs: Int64
    public var record: Int
    public var bonding: Bool
    public var mitm: Bool
    public var secureConnections: Bool
}
