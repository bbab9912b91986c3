import AnalyzerTestSupport
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLESessions
import Testing

/// Packets bledecode counts but does not decode are summarised by kind and code, never dropped;
/// an Android Bluetooth Quality Report of a link approaching its supervision timeout is a warning
/// on that link (docs/report.md, docs/failures.md).
struct NotAnalysedPacketsTests {
    let handle: UInt16 = 0x0041

    /// A BQR event's parameters: sub-event 0x58, report ID, packet type, handle, role, TX power,
    /// RSSI, then the rest of the common part as zeros (AOSP BluetoothQualityReport.java).
    func qualityReport(id: UInt8, handle: UInt16, rssi: Int8) -> [UInt8] {
        [0x58, id, 0x52, UInt8(handle & 0xFF), UInt8(handle >> 8), 0x00, 0x13, UInt8(bitPattern: rssi)]
            + [UInt8](repeating: 0, count: 48)
    }

    /// Vendor events that are not an Approaching LSTO report are counted by their first byte.
    @Test func vendorEventsAreCountedBySubevent() {
        var s = SampleScenarios.lockAConnected(handle: handle)
        s.event(0xFF, [0x00, 0x00, 0x10, 0x0A, 0x03])
        s.event(0xFF, qualityReport(id: 0x01, handle: handle, rssi: -60))
        s.event(0xFF, [0x00, 0x01])
        s.event(0xFF, [])
        let report = analyzeRecords(s.records)
        let r = s.records, n = r.count
        #expect(report.stats.packetsNotAnalysed == [
            PacketsNotAnalysed(kind: .hciVendorEvent, code: 0x00, packets: 2, bytes: 7, firstUs: r[n - 4].timestampUs,
                               lastUs: r[n - 2].timestampUs, firstRecord: n - 3),
            PacketsNotAnalysed(kind: .hciVendorEvent, code: 0x58, packets: 1, bytes: 56, firstUs: r[n - 3].timestampUs,
                               lastUs: r[n - 3].timestampUs, firstRecord: n - 2),
            PacketsNotAnalysed(kind: .hciVendorEvent, code: nil, packets: 1, bytes: 0, firstUs: r[n - 1].timestampUs,
                               lastUs: r[n - 1].timestampUs, firstRecord: n),
        ])
        #expect(report.stats.packetsNotAnalysed.map(\.name) == [
            "Vendor Specific event, sub-event 0x00",
            "Vendor Specific event, sub-event 0x58 (Android Bluetooth Quality Report)",
            "Vendor Specific event (no parameters)",
        ])
        #expect(report.notices.map(\.kind) == [.danglingConnection])
    }

    /// Approaching LSTO (report ID 0x02) names the link: a warning on it, with handle and RSSI.
    @Test func approachingSupervisionTimeoutIsAWarningOnItsLink() {
        var s = SampleScenarios.lockAConnected(handle: handle)
        s.event(0xFF, qualityReport(id: 0x02, handle: handle, rssi: -127))
        s.event(0xFF, qualityReport(id: 0x02, handle: handle, rssi: -127))
        s.disconnectionComplete(handle: handle, reason: 0x3E)
        let report = analyzeRecords(s.records)
        #expect(report.stats.packetsNotAnalysed == [])
        let notices = report.notices.filter { $0.kind == .supervisionTimeoutApproaching }
        #expect(notices.count == 1)
        #expect(notices.first?.severity == .warning)
        #expect(notices.first?.count == 2)
        #expect(notices.first?.connectionID == ConnectionID(number: 1))
        #expect(notices.first?.record == s.records.count - 2)
        #expect(notices.first?.summary == "controller reported approaching supervision timeout on handle 0x0041, "
                + "RSSI -127 dBm (nothing heard) (Bluetooth Quality Report)")
        #expect(notices.first?.details == [.int("connectionHandle", 0x0041), .int("rssi", -127), .int("reportId", 2),
                                           .string("reportName", "Approaching LSTO")])
    }

    /// Only −127 dBm, the controller's "received nothing", is said to be so; a measured RSSI stands alone.
    @Test func aMeasuredRSSIIsNotNothingHeard() {
        var s = SampleScenarios.lockAConnected(handle: handle)
        s.event(0xFF, qualityReport(id: 0x02, handle: handle, rssi: -88))
        s.disconnectionComplete(handle: handle, reason: 0x08)
        let report = analyzeRecords(s.records)
        #expect(report.notices.filter { $0.kind == .supervisionTimeoutApproaching }.map(\.summary) == [
            "controller reported approaching supervision timeout on handle 0x0041, RSSI -88 dBm (Bluetooth Quality Report)"])
    }

    /// BTstack's daemon protocol (OGF 0x3D commands, events from 0x60) is no HCI command owed an
    /// answer: counted as not analysed, not in the command totals, never unanswered.
    @Test func btstackDaemonTrafficIsSummarisedNotUnanswered() {
        var s = HCIScenario()
        s.command(0xF422, [0x03, 0x00, 0xFA, 0x00])
        s.command(0xF402, [0x01])
        s.event(0x60, [0x02])
        s.event(0x73, [0x2A, 0x00])
        s.event(0x73, [0x2A, 0x00])
        s.command(0x0C03)
        s.commandComplete(0x0C03)
        let report = analyzeRecords(s.records)
        #expect(report.commands.map(\.opcode.rawValue) == [0x0C03])
        #expect(report.commands.map(\.unanswered) == [0])
        #expect(report.stats.hciCommands == 3)
        #expect(report.stats.hciEvents == 4)
        let start = s.records[0].timestampUs, step = s.stepUs
        #expect(report.stats.packetsNotAnalysed == [
            PacketsNotAnalysed(kind: .btstackDaemonCommand, code: 0xF422, packets: 1, bytes: 4, firstUs: start, lastUs: start,
                               firstRecord: 1),
            PacketsNotAnalysed(kind: .btstackDaemonCommand, code: 0xF402, packets: 1, bytes: 1, firstUs: start + step,
                               lastUs: start + step, firstRecord: 2),
            PacketsNotAnalysed(kind: .btstackDaemonEvent, code: 0x60, packets: 1, bytes: 1, firstUs: start + 2 * step,
                               lastUs: start + 2 * step, firstRecord: 3),
            PacketsNotAnalysed(kind: .btstackDaemonEvent, code: 0x73, packets: 2, bytes: 4, firstUs: start + 3 * step,
                               lastUs: start + 4 * step, firstRecord: 4),
        ])
        #expect(report.stats.packetsNotAnalysed.map(\.name) == [
            "BTstack daemon command (OCF 0x0022)", "BTstack daemon command (OCF 0x0002)",
            "BTstack daemon event 0x60", "BTstack daemon event 0x73",
        ])
    }

    /// Over the air, an LL Control PDU of an opcode without a layout is counted on its link.
    @Test func unknownControlOpcodesAreCountedPerConnection() {
        let aa: UInt32 = 0x5065_4BD1
        var s = AirScenario(framing: .phdr)
        s.advertise(AirCaptureTests.peripheral)
        s.connectInd(initA: AirCaptureTests.central, advA: AirCaptureTests.peripheral, accessAddress: aa)
        s.wait(ms: 2)
        s.empty(aa, .central)
        s.empty(aa, .peripheral)
        s.send(aa, .peripheral, llid: .control, [0xFF, 0x01, 0x02])
        s.terminate(aa, .central, reason: 0x13)
        let (report, _) = analyze(s.records)
        let unknown = PacketsNotAnalysed(kind: .llControlUnknown, code: 0xFF, packets: 1, bytes: 3,
                                         firstUs: s.records[4].timestampUs, lastUs: s.records[4].timestampUs, firstRecord: 5)
        #expect(report.stats.packetsNotAnalysed == [unknown])
        #expect(report.connections.map(\.packetsNotAnalysed) == [[unknown]])
        #expect(unknown.name == "LL Control opcode 0xFF")
    }

    func analyzeRecords(_ records: [CaptureRecord]) -> SessionReport { analyze(records).report }
}
