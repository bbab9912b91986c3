import AnalyzerTestSupport
import BLECaptureFormats
import Testing

/// A `.gz` capture of several gzip members is one stream (RFC 1952 §2.2), and damage in a later
/// member is placed by its offset in the whole compressed file, not in its member.
@Suite struct GzipMemberTests {
    @Test func concatenatedMembersReadAsOneFile() throws {
        let bytes = CaptureWriter.btsnoop(Fixtures.hciRecords)
        let half = bytes.count / 2
        let plain = try Fixtures.read(bytes)
        let joined = try Fixtures.read(CaptureWriter.gzip(Array(bytes[..<half])) + CaptureWriter.gzip(Array(bytes[half...])))
        #expect(joined.info.compressed)
        #expect(joined.records == plain.records)
        #expect(joined.diagnostics.map(\.message) == plain.diagnostics.map(\.message))
    }

    @Test func damageInALaterMemberIsPlacedInTheWholeFile() throws {
        let first = CaptureWriter.gzip(CaptureWriter.btsnoop(Fixtures.hciRecords))
        // A second member's header (no flags, OS unknown), then a block of the reserved type 11
        // (RFC 1951 §3.2.3), which zlib rejects as soon as it reads it.
        let second: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF]
        let result = try Fixtures.read(first + second)
        let whole = try Fixtures.read(first)
        #expect(result.records == whole.records)
        let message = try #require(result.diagnostics.last?.message)
        let prefix = "gzip data is corrupt at compressed byte "
        #expect(message.hasPrefix(prefix))
        let offset = try #require(Int(message.dropFirst(prefix.count).prefix { $0.isNumber }))
        #expect(offset > first.count && offset <= first.count + second.count, "\(message)")
        #expect(message.hasSuffix(": invalid block type"))
    }
}
