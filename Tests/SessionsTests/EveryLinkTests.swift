import AnalyzerTestSupport
import BLEATT
import BLEBase
import BLECaptureFormats
import BLEPacketDecoding
import BLESessions
import Testing

/// Every link in a capture is a connection: links the capture did not see begin, BR/EDR links,
/// ATT over BR/EDR and EATT bearers, and channels that are named but not decoded.
struct EveryLinkTests {
    static let peer = BluetoothAddress("00:1B:DC:07:32:11")!

    /// The demo-lock session cut before every 10th record: each link alive at the cut (with a
    /// record after it) is a connection `startedBeforeCapture`; every ATT transaction whose request
    /// lies after the cut, and every link loss and command failure after it, is reported as in
    /// the whole capture.
    @Test func aCaptureCutAnywhereStillReportsEveryLink() {
        let records = SampleScenarios.demoLock().records
        let whole = analyze(records).report
        #expect(whole.connections.allSatisfy { !$0.startedBeforeCapture })
        var cutsInsideALink = 0
        for cut in stride(from: 10, to: records.count, by: 10) {
            let part = Array(records[cut...])
            let firstIndex = part[0].index
            let report = analyze(part).report
            let handlesAfterCut = Self.handles(in: part)
            let alive = whole.connections.filter {
                $0.startRecord < firstIndex && ($0.endRecord ?? .max) >= firstIndex && handlesAfterCut.contains($0.handle ?? 0)
            }
            if !alive.isEmpty { cutsInsideALink += 1 }
            let before = report.connections.filter(\.startedBeforeCapture)
            #expect(before.map(\.handle) == alive.map(\.handle), "cut at record \(firstIndex)")
            #expect(before.map(\.endRecord) == alive.map(\.endRecord), "cut at record \(firstIndex)")
            #expect(before.map(\.disconnectReason) == alive.map(\.disconnectReason), "cut at record \(firstIndex)")
            #expect(Self.transactions(report, from: firstIndex) == Self.transactions(whole, from: firstIndex),
                    "cut at record \(firstIndex)")
            #expect(Self.failures(report, from: firstIndex) == Self.failures(whole, from: firstIndex),
                    "cut at record \(firstIndex)")
        }
        #expect(cutsInsideALink >= 10)
    }

    /// Handles that ACL packets or Disconnection Complete events in `records` name.
    static func handles(in records: [CaptureRecord]) -> Set<UInt16> {
        var handles: Set<UInt16> = []
        for record in records {
            let bytes = record.payload
            if record.kind == .aclData, bytes.count >= 2 { handles.insert(UInt16(bytes[0]) | UInt16(bytes[1] & 0x0F) << 8) }
            if record.kind == .hciEvent, bytes.count >= 5, bytes[0] == 0x05 { handles.insert(UInt16(bytes[3]) | UInt16(bytes[4]) << 8) }
        }
        return handles
    }

    struct Listed: Hashable {
        var requestRecord: Int
        var opcode: UInt8
        var handle: UInt16?
        var outcome: String
        var responseRecord: Int?
        var errorCode: UInt8?
    }

    static func transactions(_ report: SessionReport, from record: Int) -> Set<Listed> {
        Set(report.connections.flatMap(\.transactions).filter { $0.requestRecord >= record }.map {
            Listed(requestRecord: $0.requestRecord, opcode: $0.opcode.rawValue, handle: $0.handle,
                   outcome: $0.outcome.rawValue, responseRecord: $0.responseRecord, errorCode: $0.errorCode?.rawValue)
        })
    }

    struct Failed: Hashable {
        var kind: FailureKind
        var record: Int?
        var timeUs: Int64
    }

    /// Link losses and command failures recorded at or after `record`; ATT failures are compared
    /// through their transactions.
    static func failures(_ report: SessionReport, from record: Int) -> [Failed] {
        report.failures.filter { [.linkLost, .hciCommandFailed].contains($0.kind) && ($0.record ?? 0) >= record }
            .map { Failed(kind: $0.kind, record: $0.record, timeUs: $0.timeUs) }
    }

    /// A watch and its phone over BR/EDR: ATT on an L2CAP channel for PSM 0x001F, requests,
    /// responses and a Service Changed indication, matched like ATT on the LE fixed channel.
    @Test func attOverBREDRIsDecodedAndMatched() {
        var s = HCIScenario()
        let handle: UInt16 = 0x000B
        s.classicConnectionComplete(handle: handle, peer: Self.peer)
        s.remoteNameRequestComplete(peer: Self.peer, name: "Watch")
        s.event(0x12, [0x00] + Self.peer.wire + [0x01])                              // Role Change: peripheral
        s.openClassicChannel(handle: handle, psm: 0x001F, local: 0x0040, remote: 0x0071, identifier: 1)
        s.l2cap(handle: handle, .sent, cid: 0x0071, [0x0A, 0x03, 0x00])              // Read Request 0x0003
        s.l2cap(handle: handle, .received, cid: 0x0040, [0x0B, 0x64])                // Read Response
        s.l2cap(handle: handle, .received, cid: 0x0040, [0x1D, 0x05, 0x00, 0x01, 0x00, 0xFF, 0xFF])  // Service Changed
        s.l2cap(handle: handle, .sent, cid: 0x0071, [0x1E])                           // Confirmation
        s.l2cap(handle: handle, .sent, cid: 0x0071, [0x12, 0x09, 0x00, 0x01])         // Write Request 0x0009
        s.l2cap(handle: handle, .received, cid: 0x0040, [0x01, 0x12, 0x09, 0x00, 0x03])  // Write Not Permitted
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.connections.count == 1)
        let c = report.connections[0]
        #expect(c.transport == .brEdr && !c.startedBeforeCapture && c.peerAddress == Self.peer && c.role == .peripheral)
        #expect(c.bearers == [ATTBearer(kind: .attBREDR, psm: 0x001F, localCID: 0x0040, remoteCID: 0x0071)])
        #expect(c.transactions.map(\.opcode) == [.readRequest, .handleValueIndication, .writeRequest])
        #expect(c.transactions.map(\.outcome) == [.ok, .ok, .error])
        #expect(c.channels.isEmpty)
        #expect(report.stats.attPDUs == [0x0A: 1, 0x0B: 1, 0x1D: 1, 0x1E: 1, 0x12: 1, 0x01: 1])
        #expect(report.failures.map(\.kind) == [.attError])
        #expect(report.devices.count == 1 && report.devices[0].names == ["Watch"])
    }

    /// EATT: two enhanced credit-based channels for PSM 0x0027, each its own bearer; requests on
    /// both are outstanding at once and answered in the other order, one SDU over two K-frames.
    @Test func eattBearersInterleave() {
        var s = HCIScenario()
        let handle: UInt16 = 0x0041
        s.connectionComplete(handle: handle, peer: Self.peer, random: false, intervalUnits: 24)
        s.openEnhancedChannels(handle: handle, spsm: 0x0027, local: [0x0040, 0x0041], remote: [0x0080, 0x0081],
                               identifier: 7, mps: 4)
        s.kFrames(handle: handle, .sent, cid: 0x0080, sdu: [0x0A, 0x03, 0x00], mps: 4)       // Read 0x0003 on bearer 1
        s.kFrames(handle: handle, .sent, cid: 0x0081, sdu: [0x0A, 0x05, 0x00], mps: 4)       // Read 0x0005 on bearer 2
        s.kFrames(handle: handle, .received, cid: 0x0041, sdu: [0x0B, 0x01, 0x02, 0x03, 0x04, 0x05], mps: 4)
        s.kFrames(handle: handle, .received, cid: 0x0040, sdu: [0x0B, 0x07], mps: 4)
        let report = analyze(s.records).report
        let c = report.connections[0]
        #expect(c.bearers == [ATTBearer(kind: .eatt, psm: 0x0027, localCID: 0x0040, remoteCID: 0x0080),
                              ATTBearer(kind: .eatt, psm: 0x0027, localCID: 0x0041, remoteCID: 0x0081)])
        #expect(c.transactions.map(\.handle) == [0x0005, 0x0003])
        #expect(c.transactions.map(\.outcome) == [.ok, .ok])
        #expect(report.failures.isEmpty)
        #expect(report.notices.map(\.kind) == [.danglingConnection])
        #expect(report.stats.attPDUs == [0x0A: 2, 0x0B: 2])
        #expect(c.channels.isEmpty)
    }

    /// A Classic-only link with SDP and RFCOMM: channels named by PSM and summarised, nothing dropped.
    @Test func classicLinkWithRFCOMMIsSummarised() {
        var s = HCIScenario()
        let handle: UInt16 = 0x002A
        s.command(0x0405, Self.peer.wire + [0x18, 0xCC, 0x01, 0x00, 0x00, 0x00, 0x01])   // Create Connection
        s.commandStatus(0x0405)
        s.classicConnectionComplete(handle: handle, peer: Self.peer)
        s.openClassicChannel(handle: handle, psm: 0x0003, local: 0x0042, remote: 0x0050, identifier: 3)
        for _ in 0..<3 { s.l2cap(handle: handle, .sent, cid: 0x0050, [0x03, 0x3F, 0x01, 0x1C]) }   // SABM-like frames
        s.l2cap(handle: handle, .received, cid: 0x0042, [0x03, 0x73, 0x01, 0xD7, 0x00])
        s.l2cap(handle: handle, .received, cid: 0x0077, [0x01, 0x02])                             // opening not captured
        s.disconnectionComplete(handle: handle, reason: 0x16)
        let report = analyze(s.records).report
        #expect(report.connections.count == 1)
        let c = report.connections[0]
        #expect(c.transport == .brEdr && c.bearers.isEmpty && c.disconnectReason?.rawValue == 0x16)
        #expect(c.role == .central)
        #expect(c.channels.map(\.psm) == [0x0003, nil])
        #expect(c.channels.map(\.cid) == [0x0042, 0x0077])
        #expect(c.channels.map(\.packets) == [4, 1])
        #expect(c.channels.map(\.bytes) == [17, 2])
        #expect(report.stats.channelsNotAnalysed.map(\.packets) == [4, 1])
        #expect(report.stats.records == s.records.count)
        #expect(report.failures.isEmpty)
    }

    /// The channel table follows the signalling: a refused Connection Request opens nothing, a
    /// channel configured for Enhanced Retransmission mode is summarised (its frames carry
    /// control fields), and a channel is gone after its Disconnection Response.
    @Test func channelsFollowTheSignalling() {
        var s = HCIScenario()
        let handle: UInt16 = 0x000C
        s.classicConnectionComplete(handle: handle, peer: Self.peer)
        s.signalling(handle: handle, .sent, le: false, code: 0x02, identifier: 1, [0x1F, 0x00, 0x40, 0x00])
        s.signalling(handle: handle, .received, le: false, code: 0x03, identifier: 1,
                     [0x00, 0x00, 0x40, 0x00, 0x04, 0x00, 0x00, 0x00])            // refused: no resources
        s.l2cap(handle: handle, .received, cid: 0x0040, [0x0A, 0x03, 0x00])
        s.openClassicChannel(handle: handle, psm: 0x001F, local: 0x0041, remote: 0x0051, identifier: 5)
        // The peer asks for Enhanced Retransmission mode (option 0x04, mode 0x03) towards the host's CID.
        s.signalling(handle: handle, .received, le: false, code: 0x04, identifier: 9,
                     [0x41, 0x00, 0x00, 0x00, 0x04, 0x09, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
        s.l2cap(handle: handle, .received, cid: 0x0041, [0x00, 0x00, 0x0A, 0x03, 0x00])
        s.signalling(handle: handle, .sent, le: false, code: 0x06, identifier: 10, [0x51, 0x00, 0x41, 0x00])
        s.signalling(handle: handle, .received, le: false, code: 0x07, identifier: 10, [0x51, 0x00, 0x41, 0x00])
        s.l2cap(handle: handle, .received, cid: 0x0041, [0x0A, 0x03, 0x00])
        let report = analyze(s.records).report
        #expect(report.stats.attPDUs.isEmpty)
        let c = report.connections[0]
        #expect(c.bearers.isEmpty)
        #expect(c.channels.map(\.psm) == [nil, 0x001F, nil])
        #expect(c.channels.map(\.cid) == [0x0040, 0x0041, 0x0041])
        #expect(c.channels.map(\.packets) == [1, 1, 1])
    }

    /// An SCO or CIS link's end is not a connection's; a BR/EDR connection that failed is an
    /// attempt; an Encryption Change or Authentication Complete on a handle never seen is a link.
    @Test func scoLinksAndFailedClassicConnections() {
        var s = HCIScenario()
        s.classicConnectionComplete(handle: 0x0005, peer: Self.peer, linkType: 0x00)
        s.disconnectionComplete(handle: 0x0005, reason: 0x13)
        s.leMeta(0x19, [0x00, 0x60, 0x00] + [UInt8](repeating: 0, count: 25))   // LE CIS Established, handle 0x0060
        s.disconnectionComplete(handle: 0x0060, reason: 0x13)
        s.classicConnectionComplete(handle: 0x0006, peer: Self.peer, status: 0x04)
        var report = analyze(s.records).report
        #expect(report.connections.isEmpty)
        #expect(report.attempts.map(\.outcome) == [.failed])
        #expect(report.failures.map(\.kind) == [.connectionFailed])
        // Encryption Change and Authentication Complete show links up before the capture.
        s.event(0x08, [0x00, 0x07, 0x00, 0x01])                          // Encryption Change, handle 0x0007
        s.event(0x06, [0x00, 0x08, 0x00])                                // Authentication Complete, handle 0x0008
        report = analyze(s.records).report
        #expect(report.connections.map(\.handle) == [0x0007, 0x0008])
        #expect(report.connections.allSatisfy { $0.startedBeforeCapture })
        #expect(report.connections.map(\.encrypted) == [true, false])
    }
}
