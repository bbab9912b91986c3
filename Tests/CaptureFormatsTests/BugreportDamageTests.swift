import AnalyzerTestSupport
import BLECaptureFormats
import Foundation
import Testing

@Suite struct BugreportDamageTests {
    /// A bug report text around `summary`, opened; its path goes into expected messages.
    private func open(summary: [UInt8], declaredBytes: Int = 0) -> (path: String, result: Result<ReadResult, CaptureError>) {
        let path = Fixtures.temporaryFile(BugreportWriter.text(summary: summary, declaredBytes: declaredBytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            return (path, .success(try Fixtures.read(path: path)))
        } catch {
            return (path, .failure(error))
        }
    }

    @Test func everyTruncatedPreamble() {
        let preamble: [UInt8] = [0x02,                                          // version 2
                                 0x2F, 0x86, 0xB7, 0x82, 0xE7, 0x16, 0x06, 0x00] // last_timestamp LE
        for length in 0..<9 {
            let (path, result) = open(summary: Array(preamble.prefix(length)))
            let expected = CaptureError(file: path, byteOffset: length,
                                        message: "BTSNOOP_LOG_SUMMARY ends inside the btsnooz preamble: \(length) of 9 bytes")
            #expect(throws: expected, "length \(length)") { try result.get() }
        }
    }

    @Test(arguments: [0, 3, 0xFF])
    func unsupportedVersion(version: UInt8) {
        let (path, result) = open(summary: [version, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(throws: CaptureError(file: path, byteOffset: 0,
                                     message: "unsupported BTSNOOP_LOG_SUMMARY preamble: btsnooz version \(version) is not 1 or 2")) {
            try result.get()
        }
    }

    /// Two whole records, then `tail` (a cut header or record).
    private func recordsThen(_ tail: [UInt8], version: UInt8) -> ReadResult? {
        let whole = BugreportWriter.btsnoozRecords(Array(Fixtures.hciRecords.prefix(2)), version: version)
        let encoded = whole + tail
        return try? open(summary: BugreportWriter.summary(version: version, lastTimestamp: 1_000_000, records: encoded),
                         declaredBytes: encoded.count).result.get()
    }

    @Test(arguments: [(UInt8(1), 7), (UInt8(2), 9)])
    func everyTruncatedRecordHeader(version: UInt8, headerSize: Int) throws {
        let third = BugreportWriter.btsnoozRecords([Fixtures.hciRecords[2]], version: version)
        let wholeBytes = 2 * headerSize + 3 + 6
        for length in 0..<headerSize {
            let result = try #require(recordsThen(Array(third.prefix(length)), version: version))
            #expect(result.records.count == 2, "length \(length)")
            let truncated = result.diagnostics.filter { $0.kind == .truncatedFinalRecord }
            if length == 0 {
                #expect(truncated.isEmpty)
            } else {
                #expect(truncated.map(\.message) == ["the summary ends inside the record header: \(length) of \(headerSize) bytes"],
                        "length \(length)")
                #expect(truncated.map(\.recordNumber) == [3])
                #expect(truncated.map(\.byteOffset) == [9 + wholeBytes])
            }
        }
    }

    @Test func truncatedRecordStillCountsItsDelta() throws {
        let third = BugreportWriter.btsnoozRecords(Array(Fixtures.hciRecords.prefix(3)), version: 2).suffix(9 + 11)
        let result = try #require(recordsThen(Array(third.prefix(9 + 4)), version: 2))
        #expect(result.diagnostics.filter { $0.kind == .truncatedFinalRecord }.map(\.message)
                == ["the summary ends inside the record: 13 of 20 bytes"])
        // last_timestamp belongs to the cut record 3, one µs after record 2 (AOSP btsnooz.py's sum).
        #expect(result.records.map(\.timestampUs) == [999_999 - 1, 999_999])
    }

    @Test func zeroLengthRecordStopsReading() throws {
        let zero: [UInt8] = [0x00, 0x00,             // length 0: cannot count the type byte
                             0x00, 0x00,             // packet_length
                             0x00, 0x00, 0x00, 0x00, // delta_time
                             0x20]                   // command out
        let result = try #require(recordsThen(zero + [0x01, 0x02], version: 2))
        #expect(result.records.count == 2)
        #expect(result.diagnostics.filter { $0.kind == .impossibleLength }.map(\.message)
                == ["impossible record length 0 (the length counts the type byte); the records after it are lost"])
    }

    @Test func base64Garbage() {
        var text = BugreportWriter.bugreport(records: Fixtures.hciRecords)
        let before = BugreportWriter.defaultSurroundingText.before.utf8.count
        let beginLine = "--- BEGIN:BTSNOOP_LOG_SUMMARY (60 bytes in) ---\n".utf8.count
        let at = before + beginLine + 9
        text[at] = UInt8(ascii: "!")
        let path = Fixtures.temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = CaptureError(file: path, byteOffset: at,
                                    message: "line 7: invalid base64 character 0x21 '!' in the BTSNOOP_LOG_SUMMARY section (begun on line 6)")
        #expect(throws: expected) { try CaptureFile.open(path) }
    }

    @Test func strayLineInsideTheSection() {
        var text = Array(BugreportWriter.defaultSurroundingText.before.utf8)
        text += Array("--- BEGIN:BTSNOOP_LOG_SUMMARY (1 bytes in) ---\nAgAA\n--- something else ---\n".utf8)
        let path = Fixtures.temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lineStart = BugreportWriter.defaultSurroundingText.before.utf8.count + 47 + 5
        #expect(throws: CaptureError(file: path, byteOffset: lineStart,
                                     message: "line 8: expected base64 or the END:BTSNOOP_LOG_SUMMARY line inside the BTSNOOP_LOG_SUMMARY section")) {
            try CaptureFile.open(path)
        }
    }

    @Test func textEndingInsideTheSectionIsReadWithAWarning() throws {
        let text = BugreportWriter.bugreport(records: Fixtures.hciRecords, surroundingText: ("", ""))
        let cut = String(decoding: text, as: UTF8.self).replacingOccurrences(of: "--- END:BTSNOOP_LOG_SUMMARY ---\n", with: "")
        let result = try Fixtures.read(Array(cut.utf8))
        #expect(result.records.count == 6)
        #expect(result.diagnostics.map(\.message).contains(
            "the text ends inside the section begun on line 1: no END:BTSNOOP_LOG_SUMMARY line"))
    }

    @Test func corruptZlibKeepsNothingAfterTheDamage() throws {
        let encoded = BugreportWriter.btsnoozRecords(Fixtures.hciRecords, version: 2)
        var summary = BugreportWriter.summary(version: 2, lastTimestamp: 1, records: encoded)
        summary[9] = 0x00                                                   // zlib header CMF: not deflate
        let result = try Fixtures.read(BugreportWriter.text(summary: summary, declaredBytes: encoded.count))
        #expect(result.records.isEmpty)
        let errors = result.diagnostics.filter { $0.severity == .error }
        // zlib reports the bad header once it has read both of its bytes.
        #expect(errors.map(\.message) == ["zlib data is corrupt at compressed byte 2: incorrect header check; records after it "
                                          + "are lost and times count back from a later record than the last one read"])
        #expect(errors.map(\.byteOffset) == [9 + 2])
    }

    @Test func cutZlibStreamKeepsTheWholeRecordsBeforeTheCut() throws {
        let records = Array(repeating: Fixtures.hciRecords[0], count: 400).enumerated().map { offset, record in
            var r = record
            r.timestampUs = Int64(offset) * 1000 + 1
            return r
        }
        let encoded = BugreportWriter.btsnoozRecords(records, version: 2)
        let summary = BugreportWriter.summary(version: 2, lastTimestamp: 1, records: encoded)
        let result = try Fixtures.read(BugreportWriter.text(summary: Array(summary.dropLast(6)), declaredBytes: encoded.count))
        #expect(result.records.count > 0)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.message)
                == ["the zlib stream ends before its end marker (\(summary.count - 15) compressed bytes); "
                    + "times count back from a later record than the last one read"])
    }

    @Test func declaredSizeMismatchIsReported() throws {
        let encoded = BugreportWriter.btsnoozRecords(Fixtures.hciRecords, version: 2)
        let text = BugreportWriter.text(summary: BugreportWriter.summary(version: 2, lastTimestamp: 1, records: encoded),
                                        declaredBytes: 7)
        #expect(try Fixtures.read(text).diagnostics.map(\.message).contains(
            "the BEGIN line announces 7 bytes; the records inflate to \(encoded.count)"))
    }
}
