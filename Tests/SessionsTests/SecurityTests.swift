import AnalyzerTestSupport
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLESessions
import Testing

/// Pairing and encryption per connection: SMP (Core v5.4 Vol 3 Part H), HCI encryption events
/// and commands (Vol 4 Part E §7.7.8, §7.7.39, §7.8.24–26).
struct SecurityTests {
    let lock = SampleScenarios.lockA
    let handle: UInt16 = 0x0040

    func connected() -> HCIScenario { SampleScenarios.lockAConnected(handle: handle) }

    /// Index of the next record the scenario appends.
    static func next(_ s: HCIScenario) -> Int { s.records.count }

    static func smp(_ s: inout HCIScenario, _ direction: Direction, _ pdu: [UInt8]) {
        s.l2cap(handle: 0x0040, direction, cid: 0x0006, pdu)
    }

    /// Encryption Change v1 (§7.7.8).
    static func encryptionChange(_ s: inout HCIScenario, status: UInt8, enabled: UInt8 = 1) {
        s.event(0x08, [status, 0x40, 0x00, enabled])
    }

    static let securityRequest: [UInt8] = [0x0B, 0x05]                              // bonding, MITM
    /// KeyboardDisplay, no OOB, bonding + MITM, 16, EncKey / EncKey.
    static let legacyRequest: [UInt8] = [0x01, 0x04, 0x00, 0x05, 0x10, 0x01, 0x01]
    /// DisplayOnly, no OOB, bonding + MITM, 16, EncKey / EncKey.
    static let legacyResponse: [UInt8] = [0x02, 0x00, 0x00, 0x05, 0x10, 0x01, 0x01]
    /// DisplayYesNo, bonding + MITM + SC, 16, EncKey IdKey / EncKey IdKey.
    static let scRequest: [UInt8] = [0x01, 0x01, 0x00, 0x0D, 0x10, 0x03, 0x03]
    static let scResponse: [UInt8] = [0x02, 0x01, 0x00, 0x0D, 0x10, 0x01, 0x03]

    /// The device asks, the host pairs (legacy, passkey entry), encryption starts, keys follow.
    @Test func legacyPasskeyPairingAnsweringASecurityRequest() {
        var s = connected()
        Self.smp(&s, .received, Self.securityRequest)
        let start = Self.next(s)
        Self.smp(&s, .sent, Self.legacyRequest)
        Self.smp(&s, .received, Self.legacyResponse)
        s.wait(ms: 7000)
        let encrypted = Self.next(s)
        Self.encryptionChange(&s, status: 0x00)
        Self.smp(&s, .received, [0x06] + [UInt8](repeating: 0x11, count: 16))
        let last = Self.next(s)
        Self.smp(&s, .received, [0x07, 0x34, 0x12] + [UInt8](repeating: 0x22, count: 8))
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        #expect(report.notices.isEmpty)
        let security = report.connections[0].security
        #expect(security.securityRequests.map(\.outcome) == [.pairing])
        #expect(security.pairings.count == 1)
        let p = security.pairings[0]
        #expect(p.initiator == "local" && p.method == .passkeyEntry && !p.secureConnections && p.bonding && p.mitm)
        #expect(p.initiatorIOCapability == "KeyboardDisplay" && p.responderIOCapability == "DisplayOnly")
        #expect(p.keySize == 16 && p.initiatorKeys == ["EncKey"] && p.responderKeys == ["EncKey"])
        #expect(p.result == .success && p.reasonCode == nil)
        #expect(p.startUs == s.records[start].timestampUs && p.endUs == s.records[last].timestampUs)
        #expect(security.encryption.map(\.kind) == [.start] && security.encryption.map(\.status) == [0])
        #expect(security.encryptedSinceUs == s.records[encrypted].timestampUs)
        #expect(report.connections[0].encrypted)
    }

    /// LE Secure Connections, both DisplayYesNo: numeric comparison; the device fails it.
    @Test func secureConnectionsPairingFailedByTheDevice() {
        var s = connected()
        Self.smp(&s, .sent, Self.scRequest)
        Self.smp(&s, .received, Self.scResponse)
        s.wait(ms: 1000)
        let failed = Self.next(s)
        Self.smp(&s, .received, [0x05, 0x08])
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.failures.map(\.kind) == [.pairingFailed])
        #expect(report.failures[0].summary == "Pairing failed: Unspecified Reason (0x08), sent by the device 1.0 s after the "
                + "Pairing Request (LE Secure Connections, numeric comparison, bonding)")
        #expect(report.failures[0].timeUs == s.records[failed].timestampUs)
        let p = report.connections[0].security.pairings[0]
        #expect(p.method == .numericComparison && p.secureConnections && p.result == .failed)
        #expect(p.reasonCode == 0x08 && p.reasonName == "Unspecified Reason" && p.failedBy == "remote")
        #expect(p.initiatorKeys == ["EncKey"] && p.responderKeys == ["EncKey", "IdKey"])
        #expect(!report.connections[0].encrypted)
    }

    /// LE Secure Connections succeeding: encryption ends the pairing (keys come encrypted after).
    @Test func secureConnectionsPairingSucceeds() {
        var s = connected()
        Self.smp(&s, .sent, Self.scRequest)
        Self.smp(&s, .received, Self.scResponse)
        s.wait(ms: 2000)
        let encrypted = Self.next(s)
        Self.encryptionChange(&s, status: 0x00)
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty && report.notices.isEmpty)
        let p = report.connections[0].security.pairings[0]
        #expect(p.secureConnections && p.method == .numericComparison && p.result == .success)
        #expect(p.endUs == s.records[encrypted].timestampUs)
    }

    /// The host fails the pairing (the user rejected the numeric comparison).
    @Test func pairingFailedByTheHost() {
        var s = connected()
        Self.smp(&s, .sent, Self.scRequest)
        Self.smp(&s, .received, Self.scResponse)
        Self.smp(&s, .sent, [0x05, 0x0C])
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.failures.map(\.kind) == [.pairingFailed])
        #expect(report.failures[0].summary.hasPrefix("Pairing failed: Numeric Comparison Failed (0x0C), sent by the host "))
        #expect(report.connections[0].security.pairings[0].failedBy == "local")
    }

    /// The host refuses the device's Security Request (androidpad: Pairing Not Supported).
    @Test func securityRequestRefusedByTheHost() {
        var s = connected()
        Self.smp(&s, .received, Self.securityRequest)
        let refusal = Self.next(s)
        Self.smp(&s, .sent, [0x05, 0x05])
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        // Allowed (Core v5.4 Vol 3 Part H §2.4.6) and no pairing ran: a warning, not a failure.
        #expect(report.failures.isEmpty)
        #expect(report.notices.map(\.kind) == [.securityRequestRejected])
        #expect(report.notices.map(\.severity) == [.warning])
        #expect(report.notices.map(\.summary) == ["The device's Security Request was refused with Pairing Failed: Pairing Not "
                                                 + "Supported (0x05), sent by the host; no pairing ran"])
        #expect(report.notices.map(\.record) == [s.records[refusal].index])
        #expect(report.notices[0].details.map(\.name) == ["reasonCode", "reasonName", "sentBy", "requestRecord"])
        // `sentBy` is the summary's word for the capture's host; the pairing records keep `local`.
        #expect(report.notices[0].details.first { $0.name == "sentBy" }?.value == .string("host"))
        #expect(report.connections[0].security.securityRequests.map(\.outcome) == [.rejected])
        #expect(report.connections[0].security.pairings.isEmpty)
    }

    /// A Pairing Failed during a pairing the Security Request started stays a failed pairing.
    @Test func pairingAskedForBySecurityRequestThenFailed() {
        var s = connected()
        Self.smp(&s, .received, Self.securityRequest)
        Self.smp(&s, .sent, Self.legacyRequest)
        Self.smp(&s, .received, [0x05, 0x05])
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.failures.map(\.kind) == [.pairingFailed])
        #expect(report.notices.isEmpty)
        #expect(report.connections[0].security.securityRequests.map(\.outcome) == [.pairing])
        #expect(report.connections[0].security.pairings.map(\.result) == [.failed])
    }

    /// A Security Request nothing answered: a warning, one per request.
    @Test func securityRequestIgnored() {
        var s = connected()
        Self.smp(&s, .received, Self.securityRequest)
        s.wait(ms: 100)
        Self.smp(&s, .received, Self.securityRequest)
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        #expect(report.notices.map(\.kind) == [.securityRequestIgnored])
        #expect(report.notices.map(\.count) == [2])
        #expect(report.notices[0].severity == .warning)
        #expect(report.notices[0].summary
                == "The device's Security Request (bonding, MITM) was ignored: neither pairing nor encryption followed")
        #expect(report.connections[0].security.securityRequests.map(\.outcome) == [.ignored, .ignored])
    }

    /// The capture's host as peripheral sends the Security Request: the text says whose it is.
    @Test func hostsSecurityRequestIgnored() {
        var s = connected()
        Self.smp(&s, .sent, Self.securityRequest)
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.notices.map(\.summary)
                == ["The host's Security Request (bonding, MITM) was ignored: neither pairing nor encryption followed"])
        #expect(report.connections[0].security.securityRequests.map(\.from) == ["local"])
    }

    /// A read refused for authentication, then encryption with the stored key fails with 0x06:
    /// the error says what followed.
    @Test func encryptionChangeWithPINOrKeyMissing() {
        var s = connected()
        s.readRequest(handle: handle, attribute: 0x0015, value: [], errorCode: 0x05)
        s.wait(ms: 50)
        s.command(0x2019, [0x40, 0x00] + [UInt8](repeating: 0, count: 26))
        s.commandStatus(0x2019)
        Self.encryptionChange(&s, status: 0x06, enabled: 0)
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.failures.map(\.kind) == [.attError, .encryptionFailed])
        #expect(report.failures[0].summary.hasPrefix("Read Request to handle 0x0015 failed: Insufficient Authentication (0x05); then encryption failed "))
        #expect(report.failures[1].summary == "Encryption failed to start: PIN or Key Missing (0x06) (one side has no key for "
                + "the other: the bond was lost, e.g. after an app reinstall or a reset)")
        #expect(report.failures[1].connectionID == ConnectionID(number: 1))
        let security = report.connections[0].security
        #expect(security.encryption.map(\.status) == [0x06])
        #expect(security.encryptedSinceUs == nil)
        #expect(!report.connections[0].encrypted)
    }

    /// The peripheral's host has no key: it answers the LTK Request negatively; the Encryption
    /// Change with 0x06 that follows is the same failure.
    @Test func longTermKeyNegativeReply() {
        var s = connected()
        s.leMeta(0x05, [0x40, 0x00] + [UInt8](repeating: 0, count: 10))
        s.command(0x201B, [0x40, 0x00])
        s.commandComplete(0x201B, returning: [0x40, 0x00])
        Self.encryptionChange(&s, status: 0x06, enabled: 0)
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.failures.map(\.kind) == [.encryptionFailed])
        #expect(report.failures[0].summary.hasPrefix("Encryption failed to start: the host answered the Long Term Key Request negatively"))
        #expect(report.connections[0].security.encryption.map(\.source) == ["hci-ltk-negative-reply", "hci"])
    }

    /// An ATT error for missing security with nothing after it says so.
    @Test func insufficientEncryptionFollowedByNothing() {
        var s = connected()
        s.readRequest(handle: handle, attribute: 0x0015, value: [], errorCode: 0x0F)
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.failures.map(\.summary) == ["Read Request to handle 0x0015 failed: Insufficient Encryption (0x0F); "
                                                   + "then nothing: no pairing or encryption before the link ended"])
    }

    /// Key refresh and a pause are listed; a refresh is not a start.
    @Test func keyRefreshIsListed() {
        var s = connected()
        Self.encryptionChange(&s, status: 0x00)
        s.event(0x30, [0x00, 0x40, 0x00])
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let security = analyze(s.records).report.connections[0].security
        #expect(security.encryption.map(\.kind) == [.start, .refresh])
    }

    /// The pairing method tables (Core v5.4 Vol 3 Part H §2.3.5.1, tables 2.7 and 2.8).
    @Test func pairingMethods() {
        func features(_ io: UInt8, mitm: Bool = true, oob: UInt8 = 0) -> [UInt8] { [0x01, io, oob, mitm ? 0x05 : 0x01, 16, 1, 1] }
        func method(_ a: [UInt8], _ b: [UInt8], sc: Bool) -> Pairing.Method {
            var s = connected()
            let auth: UInt8 = sc ? 0x08 : 0
            Self.smp(&s, .sent, [0x01, a[1], a[2], a[3] | auth, 16, 1, 1])
            Self.smp(&s, .received, [0x02, b[1], b[2], b[3] | auth, 16, 1, 1])
            return analyze(s.records).report.connections[0].security.pairings[0].method
        }
        #expect(method(features(0x01), features(0x01), sc: false) == .justWorks)
        #expect(method(features(0x01), features(0x01), sc: true) == .numericComparison)
        #expect(method(features(0x04), features(0x02), sc: true) == .passkeyEntry)
        #expect(method(features(0x03), features(0x04), sc: true) == .justWorks)
        #expect(method(features(0x04, mitm: false), features(0x04, mitm: false), sc: true) == .justWorks)
        #expect(method(features(0x04, oob: 1), features(0x04), sc: true) == .oob)
        #expect(method(features(0x04, oob: 1), features(0x04), sc: false) == .passkeyEntry)
    }
}
