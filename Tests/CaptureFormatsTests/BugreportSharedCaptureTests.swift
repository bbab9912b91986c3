import AnalyzerTestSupport
import BLECaptureFormats
import Foundation
import Testing

@Suite(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
struct BugreportSharedCaptureTests {
    struct Truth: Decodable {
        struct Counts: Decodable {
            var packets: Int
            var truncatedRecords: Int
            var snappedRecords: Int
        }
        var counts: Counts
    }

    @Test func demoFaultsBugreportMatchesTruth() throws {
        let name = "demo-faults.bugreport.txt"
        let truth = try SharedCaptures.truth(name)
        let data = try Data(contentsOf: SharedCaptures.root.appendingPathComponent("synthetic/\(name).truth.json"))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let counts = try decoder.decode(Truth.self, from: data).counts
        let result = try Fixtures.read(path: SharedCaptures.path("synthetic/\(name)"))
        #expect(result.info.container == .androidBugreport)
        #expect(result.records.count == truth.counts.packets)
        #expect(result.records.map(\.index) == Array(1...truth.counts.packets))
        #expect(result.records.first?.timestampUs == truth.capture.firstTsUs)
        #expect(result.records.last?.timestampUs == truth.capture.lastTsUs)
        // truncated_records counts the phone's cuts and the record the summary ends inside.
        #expect(result.records.filter(\.isTruncated).count == counts.snappedRecords)
        let final = try #require(truth.capture.truncatedFinalRecord)
        #expect(counts.truncatedRecords == counts.snappedRecords + 1)
        let truncated = result.diagnostics.filter { $0.kind == .truncatedFinalRecord }
        #expect(truncated.map(\.message) == ["the summary ends inside the record: \(final.bytesWritten) of \(final.recordBytes) bytes"])
        #expect(truncated.map(\.recordNumber) == [truth.counts.packets + 1])
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty)
    }

    /// Samsung `.cfa`, `.log.last` and `btsnooz_hci.log` files are plain btsnoop: the name never matters.
    @Test(arguments: [
        ("real/androidpad_btsnoop_hci.cfa", "capture.log.last", 15295),
        ("real/androidpad_btsnoop_hci.cfa", "notes.txt", 15295),
        ("synthetic/demo-faults.btsnooz_hci.log", "bugreport-copy.cfa", 546),
    ])
    func androidFilesAreBtsnoopByContent(source: String, name: String, records: Int) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: SharedCaptures.path(source))))
        let result = try Fixtures.read(bytes, name: name)
        #expect(result.info.container == .btsnoop)
        #expect(result.records.count == records)
    }

    @Test func btsnoozLogKeepsThePhonesCuts() throws {
        let result = try Fixtures.read(path: SharedCaptures.path("synthetic/demo-faults.btsnooz_hci.log"))
        #expect(result.records.filter(\.isTruncated).count == 153)
        #expect(result.records.filter(\.isTruncated).allSatisfy { $0.kind == .aclData && $0.payload.count == 14 })
    }
}
