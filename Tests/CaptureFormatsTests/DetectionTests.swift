import AnalyzerTestSupport
import BLECaptureFormats
import Testing

@Suite struct DetectionTests {
    @Test func emptyFile() {
        #expect(Fixtures.openError([])?.message == "empty file: not a capture")
        #expect(Fixtures.openError(CaptureWriter.gzip([]))?.message == "empty capture: the gzip data decompresses to nothing")
    }

    @Test func notACapture() {
        let text = Array("Hello, this is text\n".utf8)
        #expect(Fixtures.openError(text)?.message
                == "not a capture file (starts with 48656c6c6f2c2074 \"Hello, t\"; no btsnoop, pcap, pcapng, gzip or PacketLogger signature)")
        #expect(Fixtures.openError(CaptureWriter.gzip(text))?.message
                == "not a capture file (starts with 48656c6c6f2c2074 \"Hello, t\"; no btsnoop, pcap, pcapng, gzip or PacketLogger signature)")
    }

    @Test func missingFile() {
        do {
            _ = try CaptureFile.open("/nonexistent/capture.btsnoop")
            Issue.record("opened a missing file")
        } catch {
            #expect(error.message == "cannot open: No such file or directory")
        }
    }

    @Test func corruptGzipIsReportedAfterTheRecordsBeforeIt() throws {
        let records = Fixtures.hciRecords
        let compressed = CaptureWriter.gzip(CaptureWriter.btsnoop(records))
        let result = try Fixtures.read(Array(compressed.prefix(compressed.count - 12)))
        #expect(result.diagnostics.last?.severity == .error)
        #expect(result.diagnostics.last?.message.hasPrefix("gzip data ends inside a compressed member") == true)
    }

    @Test func everyTruncatedGzipHeader() {
        let compressed = CaptureWriter.gzip(CaptureWriter.btsnoop([]))
        for length in 1..<10 {
            #expect(Fixtures.openError(Array(compressed.prefix(length)))?.message
                    == "file ends inside the gzip header: \(length) of 10 bytes", "length \(length)")
        }
    }
}
