import BLEBase

/// Pairing and encryption on one link, in time order (`connections[].security`).
package struct ConnectionSecurity: Sendable {
    package var pairings: [Pairing] = []
    package var encryption: [EncryptionEvent] = []
    /// The peripheral's SMP Security Requests and what became of each.
    package var securityRequests: [SecurityRequest] = []

    package init() {}

    /// The first encryption start that succeeded, if any: `encrypted` holds from then.
    package var encryptedSinceUs: Int64? {
        encryption.first { $0.kind == .start && $0.status == 0 }?.timeUs
    }
}

/// One SMP pairing (Core v5.4 Vol 3 Part H §2.3): from the Pairing Request to the last key
/// distributed, a Pairing Failed, or the end of the link.
package struct Pairing: Sendable {
    package enum Result: String, Sendable { case success, failed, incomplete }
    /// Who sent the Pairing Request: `local` (the capture's host) or `remote` over HCI,
    /// `central` or `peripheral` over the air.
    package var initiator: String
    package var startUs: Int64
    package var startRecord: Int
    package var endUs: Int64?
    /// `just-works`, `passkey-entry`, `numeric-comparison`, `oob`, or `unknown` before the
    /// Pairing Response (§2.3.5.1, tables 2.6–2.8); on BR/EDR also `legacy-pin` (PIN Code Request).
    package enum Method: String, Sendable {
        case justWorks = "just-works", passkeyEntry = "passkey-entry", numericComparison = "numeric-comparison", oob,
             legacyPin = "legacy-pin", unknown
    }
    package var method: Method
    package var secureConnections: Bool
    package var bonding: Bool
    package var mitm: Bool
    package var initiatorIOCapability: String?
    package var responderIOCapability: String?
    package var keySize: Int?
    /// Keys each side distributes (negotiated: both sides' flags ANDed, §3.6.1).
    package var initiatorKeys: [String]
    package var responderKeys: [String]
    package var result: Result
    package var reasonCode: Int?
    package var reasonName: String?
    /// Who sent the Pairing Failed.
    package var failedBy: String?
}

/// An encryption change on a link: started (or failed to), its key refreshed, paused.
package struct EncryptionEvent: Sendable {
    package enum Kind: String, Sendable { case start, refresh, pause }
    package var timeUs: Int64
    package var record: Int?
    package var kind: Kind
    /// 0 for success, else the controller's (or link layer's) error code.
    package var status: Int
    package var statusName: String
    /// `hci` (Encryption Change, Key Refresh Complete, LTK negative reply) or `link-layer`.
    package var source: String
    package var keySize: Int?
}

/// A peripheral's Security Request (§3.6.7) and what followed it.
package struct SecurityRequest: Sendable {
    /// `pairing` (a Pairing Request followed), `encryption` (the central encrypted with a key it
    /// had), `rejected` (Pairing Failed answered it), `ignored` (nothing followed before the
    /// next request or the end of the link).
    package enum Outcome: String, Sendable { case pairing, encryption, rejected, ignored }
    package var outcome: Outcome
    /// Who sent it: `remote` or `local` over HCI, `peripheral` over the air.
    package var from: String
    package var timeUs: Int64
    package var record: Int
    package var bonding: Bool
    package var mitm: Bool
    package var secureConnections: Bool
}
