import AnalyzerTestSupport
import BLECaptureFormats
import Foundation
import Testing

/// What a reader gave back for one file.
struct ReadResult {
    var info: CaptureInfo
    var records: [CaptureRecord]
    var diagnostics: [CaptureDiagnostic]
}

enum Fixtures {
    /// Writes `bytes` to a fresh temporary file and returns its path.
    static func temporaryFile(_ bytes: [UInt8], name: String = "capture") -> String {
        let path = NSTemporaryDirectory() + "bledecode-test-\(UUID().uuidString)-\(name)"
        let created = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        #expect(created, "cannot create \(path)")
        return path
    }

    /// Opens `bytes` as a capture file and reads it to the end.
    static func read(_ bytes: [UInt8], name: String = "capture") throws(CaptureError) -> ReadResult {
        let path = temporaryFile(bytes, name: name)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try read(path: path)
    }

    static func read(path: String) throws(CaptureError) -> ReadResult {
        let reader = try CaptureFile.open(path)
        var records: [CaptureRecord] = []
        while let record = reader.next() { records.append(record) }
        return ReadResult(info: reader.info, records: records, diagnostics: reader.diagnostics)
    }

    /// The error `CaptureFile.open` throws for `bytes`, or nil when it opens.
    static func openError(_ bytes: [UInt8]) -> CaptureError? {
        let path = temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try CaptureFile.open(path)
            return nil
        } catch {
            return error
        }
    }

    /// Records as a reader returns them, minus the file offset (which the writer decides).
    static func withoutOffsets(_ records: [CaptureRecord]) -> [CaptureRecord] {
        records.map { var r = $0; r.fileOffset = 0; return r }
    }

    static let t0: Int64 = 1_714_011_124_378_596

    /// One record of every HCI kind, both directions, one cut by the capturing tool.
    static var hciRecords: [CaptureRecord] {
        [
            CaptureRecord(index: 1, timestampUs: t0, direction: .sent, kind: .hciCommand,
                          payload: [0x03, 0x0C, 0x00]),                        // HCI_Reset, no parameters
            CaptureRecord(index: 2, timestampUs: t0 + 1, direction: .received, kind: .hciEvent,
                          payload: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]),      // Command Complete, status 0
            CaptureRecord(index: 3, timestampUs: t0 + 2, direction: .sent, kind: .aclData,
                          payload: [0x40, 0x00, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00]),
            CaptureRecord(index: 4, timestampUs: t0 + 3, direction: .received, kind: .aclData,
                          payload: [0x40, 0x20, 0x05, 0x00, 0x01, 0x00], originalLength: 9), // cut: 3 bytes missing
            CaptureRecord(index: 5, timestampUs: t0 + 4, direction: .sent, kind: .scoData,
                          payload: [0x01, 0x00, 0x02, 0xAA, 0xBB]),
            CaptureRecord(index: 6, timestampUs: t0 + 5, direction: .received, kind: .scoData,
                          payload: [0x01, 0x00, 0x01, 0xCC]),
            CaptureRecord(index: 7, timestampUs: t0 + 6, direction: .sent, kind: .isoData,
                          payload: [0x60, 0x00, 0x02, 0x00, 0x11, 0x22]),
            CaptureRecord(index: 8, timestampUs: t0 + 1_000_000, direction: .received, kind: .isoData,
                          payload: [0x60, 0x20, 0x01, 0x00, 0x33]),
        ]
    }

    /// Monitor-only records: notes and control records, with adapters.
    static var monitorRecords: [CaptureRecord] {
        hciRecords.map { var r = $0; r.adapter = 0; return r } + [
            CaptureRecord(index: 9, timestampUs: t0 + 7, direction: .unknown, kind: .note(.systemNote),
                          payload: Array("Bluetooth daemon 5.66".utf8), adapter: 0xFFFF),
            CaptureRecord(index: 10, timestampUs: t0 + 8, direction: .unknown, kind: .note(.userLogging),
                          payload: Array("started".utf8), adapter: 0xFFFF),
            CaptureRecord(index: 11, timestampUs: t0 + 9, direction: .unknown,
                          kind: .control(name: "New Index", code: 0),
                          payload: [0x00, 0x01, 0x42, 0x79, 0xDA, 0x7D, 0x1A, 0x00] + Array("hci0\0\0\0\0".utf8), adapter: 1),
            CaptureRecord(index: 12, timestampUs: t0 + 10, direction: .unknown,
                          kind: .control(name: "Control Event", code: 17), payload: [0x01, 0x00], adapter: 0xFFFF),
            CaptureRecord(index: 13, timestampUs: t0 + 11, direction: .unknown, kind: .unknown(code: 0x55),
                          payload: [0xDE, 0xAD], adapter: 2),
        ]
    }

    /// PacketLogger records: HCI kinds (no cut records: PacketLogger has no original length),
    /// notes of every source, control records.
    static var packetLoggerRecords: [CaptureRecord] {
        let hci = hciRecords.map { var r = $0; r.originalLength = r.payload.count; return r }
        let notes: [NoteSource] = [.syslog, .kernel, .kernelDebug, .error, .power, .note, .config]
        let noteRecords = notes.enumerated().map { offset, source in
            CaptureRecord(index: 9 + offset, timestampUs: t0 + 20 + Int64(offset), direction: .unknown,
                          kind: .note(source), payload: Array("\(source.rawValue) text".utf8))
        }
        return hci + noteRecords + [
            CaptureRecord(index: 16, timestampUs: t0 + 30, direction: .unknown,
                          kind: .control(name: "LMP Sent", code: 0x0A), payload: [0x01, 0x02]),
            CaptureRecord(index: 17, timestampUs: t0 + 31, direction: .unknown,
                          kind: .control(name: "LMP Received / Vendor Diagnostic", code: 0x0B), payload: [0x03]),
            CaptureRecord(index: 18, timestampUs: t0 + 32, direction: .unknown,
                          kind: .control(name: "New Controller", code: 0xFE), payload: []),
            CaptureRecord(index: 19, timestampUs: t0 + 33, direction: .unknown, kind: .unknown(code: 0x42),
                          payload: [0x99]),
        ]
    }

    /// Air records for the link-layer link types.
    static func linkLayerRecords(_ linkType: UInt32) -> [CaptureRecord] {
        [
            CaptureRecord(index: 1, timestampUs: t0, direction: .unknown, kind: .linkLayer(linkType: linkType),
                          payload: [0xD6, 0xBE, 0x89, 0x8E, 0x40, 0x06, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]),
            CaptureRecord(index: 2, timestampUs: t0 + 625, direction: .unknown, kind: .linkLayer(linkType: linkType),
                          payload: [0x01, 0x02, 0x03], originalLength: 40),
        ]
    }
}
