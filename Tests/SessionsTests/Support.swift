import AnalyzerTestSupport
import BLECaptureFormats
import Foundation
import BLEPacketDecoding
import BLESessions

/// Runs the pipeline and the session analysis over records, as the CLI does.
func analyze(_ records: [CaptureRecord], options: SessionOptions = SessionOptions(transactions: .all))
    -> (report: SessionReport, events: [SessionEvent]) {
    var decoder = PacketDecoder()
    var sessions = SessionAnalyzer(options: options)
    var events: [SessionEvent] = []
    for var record in records {
        var packet = DecodedPacket(record: record)
        decoder.decode(swapping: &record, into: &packet)
        sessions.process(lent: &packet, into: &events)
    }
    let (report, endEvents) = sessions.finish(pipelineIssues: decoder.finish())
    return (report, events + endEvents)
}

/// Every record's packet on its own, decoded in order.
func decodeEach(_ records: [CaptureRecord]) -> [DecodedPacket] {
    var decoder = PacketDecoder()
    return records.map { record in
        var packet = DecodedPacket(record: record), swapped = record
        decoder.decode(swapping: &swapped, into: &packet)
        return packet
    }
}

func analyzeFile(_ path: String, options: SessionOptions = SessionOptions(transactions: .all)) throws -> SessionReport {
    let reader = try CaptureFile.open(path)
    var decoder = PacketDecoder()
    var sessions = SessionAnalyzer(options: options)
    var events: [SessionEvent] = []
    while var record = reader.next() {
        var packet = DecodedPacket(record: record)
        decoder.decode(swapping: &record, into: &packet)
        sessions.process(lent: &packet, into: &events)
        events.removeAll(keepingCapacity: true)
    }
    return sessions.finish(diagnostics: reader.diagnostics, pipelineIssues: decoder.finish()).report
}

/// The parts of a synthetic capture's truth file the session tests compare.
struct SessionTruth: Decodable {
    struct Connection: Decodable {
        var id: Int
        var handle: UInt16?
        var accessAddress: String?
        var crcInit: String?
        var peerAddress: String
        var startTsUs: Int64
        var endTsUs: Int64?
        var mtu: Int
        var disconnectReason: String?
        var dangling: Bool
    }
    struct Transaction: Decodable, Hashable {
        var connectionId: Int
        var opcode: String
        var attHandle: UInt16?
        var requestTsUs: Int64
        var responseTsUs: Int64?
        var outcome: String
        var errorCode: String?
    }
    struct Failure: Decodable { var kind: String; var tsUs: Int64 }
    struct Counts: Decodable { var attPdusByOpcode: [String: Int] }
    var connections: [Connection]
    var attTransactions: [Transaction]
    var failures: [Failure]
    var counts: Counts

    static func load(_ name: String) throws -> SessionTruth {
        let data = try Data(contentsOf: SharedCaptures.root.appendingPathComponent("synthetic/\(name).truth.json"))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(SessionTruth.self, from: data)
    }

    /// The report contract's failure kind for each injected fault (synthetic/README.md).
    static let failureKinds: [String: String] = [
        "hci_cmd_complete_error": "hci-command-failed", "hci_cmd_status_error": "hci-command-failed",
        "conn_fail_3e": "connection-failed", "create_conn_never_completes": "connection-never-completed",
        "dangling_connection": "dangling-connection", "att_write_not_permitted": "att-error",
        "att_read_insufficient_auth": "att-error", "write_no_response_link_drop": "att-no-response",
        "vendor_bad_crc": "vendor-crc-mismatch", "vendor_status_fail": "vendor-status-failure",
        "vendor_no_response": "vendor-no-response", "truncated_final_record": "capture-truncated",
    ]

    /// Failure kinds the truth implies without vendor decoding: the injected faults plus a
    /// `link-lost` per abnormal disconnection.
    var expectedFailureKinds: [String: Int] {
        var kinds: [String: Int] = [:]
        for failure in failures {
            guard let kind = Self.failureKinds[failure.kind], !kind.hasPrefix("vendor") else { continue }
            kinds[kind, default: 0] += 1
        }
        for connection in connections {
            if let reason = connection.disconnectReason, !["0x13", "0x15", "0x16"].contains(reason) {
                kinds["link-lost", default: 0] += 1
            }
        }
        return kinds
    }
}
