import AnalyzerTestSupport
import BLECaptureFormats
import Foundation
import Testing

/// Records for bug-report round trips: every HCI kind (SCO is dropped by the phone), one ACL
/// record already cut, a long ATT packet the phone cuts, a long signalling packet it keeps.
enum BugreportFixtures {
    static var records: [CaptureRecord] {
        Fixtures.hciRecords + [
            CaptureRecord(index: 9, timestampUs: Fixtures.t0 + 2_000_000, direction: .sent, kind: .aclData,
                          payload: [0x40, 0x00, 0x10, 0x00,                  // handle 0x0040, start; ACL length 16
                                    0x0C, 0x00, 0x04, 0x00,                  // L2CAP length 12, CID 0x0004 (ATT)
                                    0x12, 0x10, 0x00]                        // Write Request, handle 0x0010
                                    + [UInt8](repeating: 0xAA, count: 9)),   // value: cut after 3 bytes
            CaptureRecord(index: 10, timestampUs: Fixtures.t0 + 3_000_000, direction: .received, kind: .aclData,
                          payload: [0x40, 0x20, 0x10, 0x00,                  // handle 0x0040, start; ACL length 16
                                    0x0C, 0x00, 0x01, 0x00,                  // L2CAP length 12, CID 0x0001 (signalling)
                                    0x12, 0x01, 0x08, 0x00,                  // Conn Param Update Request, id 1, length 8
                                    0x06, 0x00, 0x0C, 0x00, 0x00, 0x00, 0xF4, 0x01]), // kept whole
        ]
    }

    static let summaryWarning = "Android's bug-report summary keeps only the first 14 bytes of each ACL packet (L2CAP "
        + "signalling excepted) and drops SCO: ATT values, vendor frames and PDUs longer than 5 ATT bytes are cut and "
        + "cannot be decoded; for whole packets, enable the Bluetooth HCI snoop log and collect btsnoop_hci.log"
}

@Suite struct BugreportTests {
    @Test func loggingRuleCutsACLAndDropsSCO() {
        let logged = BugreportWriter.logged(BugreportFixtures.records)
        #expect(logged.map(\.index) == Array(1...8))
        #expect(!logged.contains { $0.kind == .scoData })
        #expect(logged.map(\.payload.count) == [3, 6, 11, 6, 6, 5, 14, 20])
        #expect(logged.map(\.isTruncated) == [false, false, false, true, false, false, true, false])
    }

    @Test func version2TextRoundTrip() throws {
        let result = try Fixtures.read(BugreportWriter.bugreport(records: BugreportFixtures.records))
        #expect(Fixtures.withoutOffsets(result.records) == BugreportWriter.logged(BugreportFixtures.records))
        #expect(result.info.container == .androidBugreport)
        #expect(result.info.linkTypeDescription == "Android bug report BTSNOOP_LOG_SUMMARY v2 (btsnooz)")
        #expect(result.info.linkType == nil)
        #expect(result.diagnostics.map(\.message) == [
            BugreportFixtures.summaryWarning,
            "2 record(s) were cut by the capturing tool (included length < original length)",
        ])
        #expect(result.diagnostics.map(\.severity) == [.warning, .warning])
        // Offsets are in the decoded summary: the 9-byte preamble, then 9-byte v2 headers.
        #expect(result.records.prefix(2).map(\.fileOffset) == [9, 9 + 9 + 3])
    }

    @Test func version1HasNoOriginalLength() throws {
        let result = try Fixtures.read(BugreportWriter.bugreport(records: BugreportFixtures.records, version: 1))
        let expected = BugreportWriter.logged(BugreportFixtures.records).map {
            var record = $0
            record.originalLength = record.payload.count
            return record
        }
        #expect(Fixtures.withoutOffsets(result.records) == expected)
        #expect(result.info.linkTypeDescription == "Android bug report BTSNOOP_LOG_SUMMARY v1 (btsnooz)")
        #expect(result.diagnostics.map(\.message) == [BugreportFixtures.summaryWarning])
        #expect(result.records.prefix(2).map(\.fileOffset) == [9, 9 + 7 + 3])
    }

    @Test func timesCountBackFromTheLastTimestamp() throws {
        let records = [
            CaptureRecord(index: 1, timestampUs: 1_000, direction: .sent, kind: .hciCommand, payload: [0x03, 0x0C, 0x00]),
            CaptureRecord(index: 2, timestampUs: 4_500, direction: .received, kind: .hciEvent, payload: [0x0E, 0x00]),
        ]
        let encoded = BugreportWriter.btsnoozRecords(records, version: 2)
        // The preamble's last_timestamp decides every time: deltas 0 and 3500 count back from it.
        let text = BugreportWriter.text(summary: BugreportWriter.summary(version: 2, lastTimestamp: 1_714_000_000_000_000,
                                                                         records: encoded),
                                        declaredBytes: encoded.count)
        let result = try Fixtures.read(text)
        #expect(result.records.map(\.timestampUs) == [1_713_999_999_996_500, 1_714_000_000_000_000])
    }

    @Test func carriageReturnsAndIndentedBase64AreTolerated() throws {
        let text = String(decoding: BugreportWriter.bugreport(records: Fixtures.hciRecords), as: UTF8.self)
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n").replacingOccurrences(of: "bytes in) ---\r\n", with: "bytes in) ---\r\n  \t")
        let result = try Fixtures.read(Array(crlf.utf8))
        #expect(Fixtures.withoutOffsets(result.records) == BugreportWriter.logged(Fixtures.hciRecords))
    }

    @Test func unknownTypeIsKeptRaw() throws {
        var encoded = BugreportWriter.btsnoozRecords(Array(Fixtures.hciRecords.prefix(1)), version: 2)
        encoded[8] = 0x33                                                   // type byte of record 1
        let text = BugreportWriter.text(summary: BugreportWriter.summary(version: 2, lastTimestamp: 5, records: encoded),
                                        declaredBytes: encoded.count)
        let result = try Fixtures.read(text)
        #expect(result.records.map(\.kind) == [.unknown(code: 0x33)])
        #expect(result.records.map(\.direction) == [.unknown])
        #expect(result.diagnostics.filter { $0.kind == .unknownRecordType }.map(\.description)
                == ["\(result.info.path), decoded BTSNOOP_LOG_SUMMARY: record 1 at byte 9: unknown btsnooz record type 0x33; kept raw"])
    }

    @Test(arguments: [true, false])
    func zipRoundTrip(deflated: Bool) throws {
        let name = "bugreport-oriole-UQ1A.240205.004-2024-04-25-08-24-06.txt"
        let zip = BugreportWriter.zip([
            ("version.txt", Array("2.0".utf8)),
            ("FS/data/misc/big.bin", [UInt8](repeating: 0x5A, count: 300_000)),
            (name, BugreportWriter.bugreport(records: BugreportFixtures.records)),
        ], deflated: deflated)
        let result = try Fixtures.read(zip, name: "bugreport.zip")
        #expect(Fixtures.withoutOffsets(result.records) == BugreportWriter.logged(BugreportFixtures.records))
        #expect(result.info.linkTypeDescription == "Android bug report BTSNOOP_LOG_SUMMARY v2 (btsnooz), zip entry \(name)")
    }

    @Test func zipFallsBackToAnyTextEntryWithTheSection() throws {
        let zip = BugreportWriter.zip([
            ("bugreport-oriole-2024.txt", Array("== dumpstate: 2024-04-25\nno summary here\n".utf8)),
            ("dumpsys_bluetooth.txt", BugreportWriter.bugreport(records: Fixtures.hciRecords)),
        ])
        let result = try Fixtures.read(zip)
        #expect(result.records.count == 6)
        #expect(result.info.linkTypeDescription.hasSuffix(", zip entry dumpsys_bluetooth.txt"))
    }

    @Test func zipWithoutTheSection() {
        let zip = BugreportWriter.zip([("bugreport-x.txt", Array("== dumpstate\n".utf8)), ("version.txt", Array("2.0".utf8)),
                                       ("proto/x.pb", [0, 1, 2])])
        let path = Fixtures.temporaryFile(zip, name: "report.zip")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: CaptureError(file: path, message: "no capture file and no BTSNOOP_LOG_SUMMARY section in \(path) "
                                     + "(searched bugreport-x.txt, version.txt; it holds 3 entries: bugreport-x.txt, version.txt, proto/x.pb)")) {
            try CaptureFile.open(path)
        }
    }

    /// A btsnoop log zipped alone is read like the log itself.
    @Test func zippedBtsnoopLogIsACapture() throws {
        let zip = BugreportWriter.zip([("btsnoop_hci.log", CaptureWriter.btsnoop(Fixtures.hciRecords))])
        let path = Fixtures.temporaryFile(zip, name: "log.zip")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Fixtures.read(path: path)
        #expect(Fixtures.withoutOffsets(result.records) == Fixtures.withoutOffsets(Fixtures.hciRecords))
        #expect(result.info.path == "\(path) (btsnoop_hci.log)")
        // The fixture's cut record, as in the log itself; nothing about the zip.
        #expect(result.diagnostics.map(\.kind) == [.truncatedRecords])
    }

    /// A recent Android bug report zip: the full snoop log is a file under FS/ (preferred to the
    /// text's summary); the first log found is read, the others are named in a warning.
    @Test func bugreportZipWithSnoopLogFiles() throws {
        let zip = BugreportWriter.zip([
            ("bugreport-oriole-2024.txt", BugreportWriter.bugreport(records: Fixtures.hciRecords)),
            ("FS/data/misc/bluetooth/logs/btsnoop_hci.log", CaptureWriter.btsnoop(Fixtures.hciRecords)),
            ("FS/data/misc/bluetooth/logs/btsnoop_hci.log.last", CaptureWriter.btsnoop(Array(Fixtures.hciRecords.prefix(2)))),
            ("FS/data/log/bt/notes.log", Array("not a capture\n".utf8)),
        ])
        let path = Fixtures.temporaryFile(zip, name: "bugreport.zip")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Fixtures.read(path: path)
        #expect(result.records.count == Fixtures.hciRecords.count)
        #expect(result.info.path == "\(path) (FS/data/misc/bluetooth/logs/btsnoop_hci.log)")
        #expect(result.diagnostics.map(\.message) == ["the zip holds 2 captures: read FS/data/misc/bluetooth/logs/btsnoop_hci.log; "
                                                      + "not read: FS/data/misc/bluetooth/logs/btsnoop_hci.log.last",
                                                      "1 record(s) were cut by the capturing tool (included length < original length)"])
    }

    @Test func gzippedZipIsReadThroughACopy() throws {
        let zip = BugreportWriter.zip(BugreportWriter.bugreport(records: Fixtures.hciRecords), entryName: "bugreport-a.txt")
        let result = try Fixtures.read(CaptureWriter.gzip(zip))
        #expect(result.records.count == 6)
        #expect(result.info.compressed)
    }

    @Test func bugreportTextWithoutTheSection() {
        let text = Array((BugreportWriter.defaultSurroundingText.before + "Snoop Log Mode: full\n").utf8)
        let path = Fixtures.temporaryFile(text, name: "bugreport-x.txt")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: CaptureError(file: path, message: "no BTSNOOP_LOG_SUMMARY section in \(path): the bug report holds no Bluetooth HCI summary")) {
            try CaptureFile.open(path)
        }
    }

    @Test func readingStopsAtTheEndLine() throws {
        // A second, broken section after the first is never read.
        var text = BugreportWriter.bugreport(records: Fixtures.hciRecords)
        text += Array("--- BEGIN:BTSNOOP_LOG_SUMMARY (1 bytes in) ---\n!!!!\n".utf8)
        #expect(try Fixtures.read(text).records.count == 6)
    }
}
