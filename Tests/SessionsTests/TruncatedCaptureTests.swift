import AnalyzerTestSupport
import BLEBase
import BLECaptureFormats
import Foundation
import BLESessions
import Testing

/// Captures whose ACL the phone cut (Android btsnooz and bug-report summaries): what survived
/// whole is decoded, what was cut is counted by the opcode still visible, never shown whole.
struct TruncatedCaptureTests {
    struct Counts: Decodable {
        var attPdusByOpcode: [String: Int]
        var attPdusByOpcodeWhole: [String: Int]
        var attPdusUnrecoverableTotal: Int
    }

    static func truth(_ name: String) throws -> Counts {
        struct File: Decodable { var counts: Counts }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let data = try Data(contentsOf: SharedCaptures.root.appendingPathComponent("synthetic/\(name).truth.json"))
        return try decoder.decode(File.self, from: data).counts
    }

    static func hex(_ counts: [UInt8: Int]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: counts.map { (Hex.code($0.key), $0.value) })
    }

    @Test(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"),
          arguments: ["demo-faults.btsnooz_hci.log", "demo-faults.bugreport.txt"])
    func wholeAndCutPDUsEqualTruth(name: String) throws {
        let truth = try Self.truth(name)
        let report = try analyzeFile(SharedCaptures.path("synthetic/\(name)"))
        #expect(Self.hex(report.stats.attPDUs) == truth.attPdusByOpcodeWhole)
        var all = report.stats.attPDUs
        for (opcode, count) in report.stats.cutATTPDUs { all[opcode, default: 0] += count }
        #expect(Self.hex(all) == truth.attPdusByOpcode)
        #expect(report.stats.hiddenATTPDUs == truth.attPdusUnrecoverableTotal)
        #expect(report.notices.filter { $0.kind == .captureTruncated }.map(\.summary).last
                == "153 record(s) were cut short by the capturing tool: 149 ATT PDU(s) cannot be decoded whole (149 with their opcode visible)")
    }

    /// A btsnooz file made with the project's builder, cut by Android's rule (ACL kept to 14
    /// bytes unless it is L2CAP signalling).
    @Test func builderMadeBtsnooz() throws {
        let records = BugreportWriter.logged(SampleScenarios.demoLock().records)
        let bytes = CaptureWriter.btsnoop(records)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("btsnooz-\(getpid()).log").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try analyzeFile(path)
        let cut = records.filter(\.isTruncated).count
        #expect(report.stats.truncatedRecords == cut)
        // Short PDUs survive whole (Write Response, Exchange MTU, CCCD writes, one-entry Find
        // Information responses: at most 6 ATT bytes fit in 14); the others are cut.
        #expect(Self.hex(report.stats.attPDUs) == ["0x01": 8, "0x02": 1, "0x03": 1, "0x04": 6, "0x05": 6, "0x0A": 2,
                                                   "0x0B": 1, "0x12": 4, "0x13": 8])
        #expect(Self.hex(report.stats.cutATTPDUs) == ["0x08": 12, "0x09": 8, "0x10": 4, "0x11": 2, "0x12": 6, "0x1B": 8,
                                                      "0x52": 1])
        #expect(report.stats.hiddenATTPDUs == 41)
        // Whole plus cut is every PDU of the uncut capture.
        let uncut = analyze(SampleScenarios.demoLock().records).report
        var all = report.stats.attPDUs
        for (opcode, count) in report.stats.cutATTPDUs { all[opcode, default: 0] += count }
        #expect(all == uncut.stats.attPDUs)
        // Connections and their ends survive: signalling, commands and events are kept whole.
        #expect(report.connections.map(\.dangling) == [false, false, true])
    }
}
