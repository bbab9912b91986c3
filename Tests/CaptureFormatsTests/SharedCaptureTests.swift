import AnalyzerTestSupport
import BLECaptureFormats
import Foundation
import Testing

@Suite(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
struct SharedCaptureTests {
    @Test(arguments: [
        "demo-clean.btsnoop", "demo-clean.pcap", "demo-clean.pcapng", "demo-clean.pklg", "demo-clean.ll.pcap",
        "demo-faults.btsnoop", "demo-faults.pcap", "demo-faults.pcapng", "demo-faults.pklg", "demo-faults.le.pklg",
        "demo-faults.btsnooz_hci.log", "demo-faults.ll.pcap", "demo-faults.nordic.pcap", "demo-20k.btsnoop",
    ])
    func syntheticMatchesTruth(name: String) throws {
        let truth = try SharedCaptures.truth(name)
        let result = try Fixtures.read(path: SharedCaptures.path("synthetic/\(name)"))
        #expect(result.records.count == truth.counts.packets)
        #expect(result.records.first?.timestampUs == truth.capture.firstTsUs)
        #expect(result.records.last?.timestampUs == truth.capture.lastTsUs)
        #expect(result.records.map(\.index) == Array(1...truth.counts.packets))
        let truncated = result.diagnostics.filter { $0.kind == .truncatedFinalRecord }
        if let expected = truth.capture.truncatedFinalRecord {
            #expect(truncated.map(\.message) == ["file ends inside the record: \(expected.bytesWritten) of \(expected.recordBytes) bytes"])
            #expect(truncated.map(\.recordNumber) == [truth.counts.packets + 1])
        } else {
            #expect(truncated.isEmpty)
        }
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty)
    }

    @Test(arguments: [
        ("yeelock_btsnoop_hci.log", 690), ("horizon74_btsnoop_hci.log", 2572), ("btmouse_btsnoop_hci.log", 1315),
        ("fossibot_btsnoop_hci.log", 9227), ("androidpad_btsnoop_hci.cfa", 15295),
        ("airbily_bluethoot_logs.pcapng", 810), ("isap_hci_dump.pklg", 161), ("batteread_capture.btsnoop", 6),
        ("garmin.pcapng", 4881), ("whad_ble_discovery.pcap", 180), ("crackle_lesc.pcapng", 303),
        ("watch_logs_capture.pcap", 11799), ("crackle_pairing.pcap", 713), ("swt_st_att_deadlock.pcap", 195),
    ])
    func realCaptureCountsMatchTshark(name: String, frames: Int) throws {
        let result = try Fixtures.read(path: SharedCaptures.path("real/\(name)"))
        #expect(result.records.count == frames)
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics)")
    }

    @Test func whadIsPcapngDespiteItsName() throws {
        let result = try Fixtures.read(path: SharedCaptures.path("real/whad_ble_discovery.pcap"))
        #expect(result.info.container == .pcapng)
        #expect(result.info.linkType == 256)
    }

    @Test func batteReadMonitorRecords() throws {
        let result = try Fixtures.read(path: SharedCaptures.path("real/batteread_capture.btsnoop"))
        #expect(result.info.linkTypeDescription == "btsnoop datalink 2001 (Linux monitor)")
        #expect(result.records.map(\.kind) == [
            .note(.systemNote), .note(.systemNote),
            .control(name: "New Index", code: 0), .control(name: "Open Index", code: 8),
            .control(name: "Index Info", code: 10), .control(name: "Control Open", code: 14),
        ])
        #expect(result.records.first.map { String(decoding: $0.payload, as: UTF8.self) }
                == "Linux version 6.6.31+rpt-rpi-2712 (aarch64)")
        #expect(result.records.first?.adapter == 0xFFFF)
    }

    @Test func sardarkFailsCleanly() throws {
        let result = try Fixtures.read(path: SharedCaptures.path("real/sardark_btsnooz_hci.log"))
        #expect(result.records.isEmpty)
        #expect(result.diagnostics.map(\.description)
                == ["\(SharedCaptures.path("real/sardark_btsnooz_hci.log")): record 1 at byte 16: impossible included length 3269633792"])
        #expect(result.diagnostics.map(\.severity) == [.error])
    }
}
