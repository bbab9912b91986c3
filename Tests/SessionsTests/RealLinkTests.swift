import AnalyzerTestSupport
import BLECaptureFormats
import Foundation
import BLESessions
import Testing

/// Every link of the real captures and the samples is a connection, and every id the report
/// references exists in it.
@Suite(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
struct RealLinkTests {
    static var everyCapture: [String] {
        let samples = ["demo-lock.btsnoop", "demo-lock.btsnoop.gz", "demo-lock.le.pklg", "demo-lock.pcap",
                       "demo-lock.pcapng", "demo-lock.pklg"]
            .map { SharedCaptures.packageRoot.appendingPathComponent("Samples/\($0)").path }
        let shared = ["synthetic", "real"].flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: SharedCaptures.path(directory))) ?? [])
                .filter { !$0.hasSuffix(".json") && !$0.hasSuffix(".md") && $0 != "sardark_btsnooz_hci.log" }
                .sorted().map { SharedCaptures.path("\(directory)/\($0)") }
        }
        return samples + shared
    }

    @Test(arguments: everyCapture)
    func everyReferencedIdExistsAndEveryRecordIsCounted(path: String) throws {
        let report = try analyzeFile(path)
        let devices = Set(report.devices.map(\.id)), connections = Set(report.connections.map(\.id))
        #expect(devices.count == report.devices.count && connections.count == report.connections.count)
        for connection in report.connections { #expect(connection.deviceID.map(devices.contains) ?? true, "\(connection.id)") }
        for device in report.devices { #expect(device.connectionIDs.allSatisfy(connections.contains), "\(device.id)") }
        for failure in report.failures {
            #expect(failure.deviceID.map(devices.contains) ?? true, "\(failure.summary)")
            #expect(failure.connectionID.map(connections.contains) ?? true, "\(failure.summary)")
        }
        for attempt in report.attempts { #expect(attempt.deviceID.map(devices.contains) ?? true) }
        let s = report.stats
        #expect(s.records == s.hciCommands + s.hciEvents + s.aclPackets + s.scoPackets + s.isoPackets + s.airPackets
                + s.otherRecords + s.undecodableRecords)
    }

    /// An air capture cut at records where the sniffer joins running links: each link alive at
    /// the cut is a connection that started before the capture, ending as in the whole capture.
    @Test(arguments: [60, 120, 200, 300])
    func airCaptureCutMidConnection(cut: Int) throws {
        let reader = try CaptureFile.open(SharedCaptures.path("synthetic/demo-clean.ll.pcap"))
        var records: [CaptureRecord] = []
        while let record = reader.next() { records.append(record) }
        let whole = analyze(records).report
        let report = analyze(Array(records[(cut - 1)...])).report
        let alive = whole.connections.filter { $0.startRecord < cut && ($0.endRecord ?? .max) >= cut }
            .sorted { ($0.accessAddress ?? 0) < ($1.accessAddress ?? 0) }
        #expect(!alive.isEmpty)
        let joined = report.connections.filter(\.startedBeforeCapture).sorted { ($0.accessAddress ?? 0) < ($1.accessAddress ?? 0) }
        #expect(joined.map(\.accessAddress) == alive.map(\.accessAddress))
        #expect(joined.map(\.endUs) == alive.map(\.endUs))
        // A captured LL_TERMINATE_IND gives the reason; a loss inferred from the peripheral's
        // silence needs the connection interval, which only the CONNECT_IND the cut removed gives.
        #expect(joined.map { $0.endRecord == nil ? nil : $0.disconnectReason }
                == alive.map { $0.endRecord == nil ? nil : $0.disconnectReason })
    }

    /// BTstack's Classic-only capture: two BR/EDR links, the first ended by the host; SDP and
    /// RFCOMM named and counted (tshark: 8 SDP and 8 RFCOMM frames).
    @Test func classicOnlyCaptureHasItsLinks() throws {
        let report = try analyzeFile(SharedCaptures.path("real/isap_hci_dump.pklg"))
        #expect(report.connections.map(\.transport) == [.brEdr, .brEdr])
        #expect(report.connections.map(\.handle) == [0x002A, 0x002A])
        // The host accepted both, asking to remain the peripheral (Accept Connection Request role 0x01).
        #expect(report.connections.map(\.role) == [.peripheral, .peripheral])
        #expect(report.connections[0].disconnectReason?.rawValue == 0x16 && report.connections[0].endRecord == 90)
        #expect(report.connections[1].dangling)
        #expect(report.stats.channelsNotAnalysed.map(\.psm) == [0x0001, 0x0003])
        #expect(report.stats.channelsNotAnalysed.map(\.packets) == [8, 8])
        #expect(report.stats.l2capWithoutConnection == 0)
    }

    /// A Wireshark export filtered to ATT: no HCI events at all; its one link began before the
    /// capture and carries all 120 ATT PDUs, its transactions and its 8 Error Responses.
    @Test func filteredExportKeepsItsLink() throws {
        let report = try analyzeFile(SharedCaptures.path("real/darkelf_test1.pcapng"))
        #expect(report.connections.count == 1)
        let c = report.connections[0]
        #expect(c.startedBeforeCapture && c.transport == .le && c.startRecord == 1)
        #expect(c.bearers.map(\.kind) == [.attFixed])
        // Its partial GATT database, learned from the discovery in the capture.
        #expect(c.gatt.filter { $0.kind == .service }.map(\.uuid.description) == ["1800", "180A", "FF00"])
        #expect(report.stats.attPDUs.values.reduce(0, +) == 120)
        let totals = c.transactionTotals.byKey.map(\.value)
        #expect(totals.reduce(0) { $0 + $1.errors + $1.discoveryEnds } == 8)
    }
}
