import AnalyzerTestSupport
import BLEATT
import BLEBase
import BLESessions
import Testing

/// The session model against the synthetic captures' truth files.
@Suite(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
struct SharedTruthTests {
    static let hciCaptures = ["demo-clean.btsnoop", "demo-clean.pcap", "demo-clean.pcapng", "demo-clean.pklg",
                              "demo-faults.btsnoop", "demo-faults.pcap", "demo-faults.pcapng", "demo-faults.pklg",
                              "demo-faults.le.pklg"]

    @Test(arguments: hciCaptures)
    func failuresEqualTruth(name: String) throws {
        let truth = try SessionTruth.load(name)
        let report = try analyzeFile(SharedCaptures.path("synthetic/\(name)"))
        var kinds: [String: Int] = [:]
        for failure in report.findings { kinds[failure.kind.rawValue, default: 0] += failure.count }
        #expect(kinds == truth.expectedFailureKinds)
        // Each injected fault at the time it became visible. Two pinned differences: the truth
        // times a command refused by Command Status at the command (we: at the Command Status
        // that refuses it, 1.281 ms later), and a request lost with its link at the moment the
        // link died (we: at the Disconnection Complete that shows it, a supervision timeout of
        // 4 s later). Both are the moment the failure became visible in the capture.
        let pinnedDelay: [String: Int64] = ["hci_cmd_status_error": 1281, "write_no_response_link_drop": 4_000_000]
        for fault in truth.failures {
            guard let kind = SessionTruth.failureKinds[fault.kind], !kind.hasPrefix("vendor"), kind != "capture-truncated",
                  kind != "dangling-connection" else { continue }
            let expected = fault.tsUs + (pinnedDelay[fault.kind] ?? 0)
            #expect(report.findings.contains { $0.kind.rawValue == kind && $0.timeUs == expected }, "\(fault.kind)")
        }
    }

    @Test(arguments: hciCaptures)
    func connectionsEqualTruth(name: String) throws {
        let truth = try SessionTruth.load(name)
        let report = try analyzeFile(SharedCaptures.path("synthetic/\(name)"))
        #expect(report.connections.count == truth.connections.count)
        for (expected, actual) in zip(truth.connections, report.connections) {
            #expect(actual.handle == expected.handle)
            #expect(actual.peerAddress?.description == expected.peerAddress)
            #expect(actual.endUs == expected.endTsUs)
            #expect(actual.dangling == expected.dangling)
            #expect(actual.mtu == expected.mtu)
            #expect(actual.disconnectReason.map { Hex.code($0.rawValue) } == expected.disconnectReason)
            // Pinned difference: where LE Data Length Change follows the connection complete,
            // the truth's start is the Data Length Change's time; a connection starts at its
            // LE (Enhanced) Connection Complete (Core v5.4 Vol 4 Part E §7.7.65.1), 3 ms earlier.
            #expect(actual.startUs == expected.startTsUs || actual.startUs == expected.startTsUs - 3000,
                    "connection \(expected.id)")
        }
    }

    @Test(arguments: hciCaptures + ["demo-clean.ll.pcap", "demo-faults.ll.pcap", "demo-faults.nordic.pcap"])
    func transactionsAndATTCountsEqualTruth(name: String) throws {
        let truth = try SessionTruth.load(name)
        let report = try analyzeFile(SharedCaptures.path("synthetic/\(name)"))
        var attPDUs: [String: Int] = [:]
        for (opcode, count) in report.stats.attPDUs { attPDUs[Hex.code(opcode)] = count }
        #expect(attPDUs == truth.counts.attPdusByOpcode)
        let outcomes = ["ok": "ok", "error": "error", "no_response": "no-response",
                        "no_response_expected": "no-response-expected"]
        // Connections keyed by start order in both; the truth numbers every connection.
        let peers = Dictionary(truth.connections.map { ($0.id, $0.peerAddress) }, uniquingKeysWith: { a, _ in a })
        func key(_ t: SessionTruth.Transaction) -> String {
            "\(peers[t.connectionId] ?? "?") \(t.opcode) \(t.attHandle.map(String.init) ?? "-") \(t.requestTsUs) "
                + "\(t.responseTsUs.map(String.init) ?? "-") \(outcomes[t.outcome] ?? t.outcome)"
        }
        var actual: [String] = []
        for connection in report.connections {
            for t in connection.transactions {
                actual.append("\(connection.peerAddress?.description ?? "?") \(Hex.code(t.opcode.rawValue)) "
                              + "\(t.handle.map(String.init) ?? "-") \(t.requestUs) \(t.responseUs.map(String.init) ?? "-") "
                              + t.outcome.rawValue)
            }
        }
        #expect(actual.sorted() == truth.attTransactions.map(key).sorted())
    }

    /// Over the air: connections by access address, their ends, and the one deliberate
    /// difference (docs/air-captures.md): a CONNECT_IND the peripheral never answered is a failed
    /// connection attempt (0x3E), whatever the HCI version of the scenario reported.
    @Test(arguments: ["demo-clean.ll.pcap", "demo-faults.ll.pcap", "demo-faults.nordic.pcap"])
    func airConnectionsEqualTruth(name: String) throws {
        let truth = try SessionTruth.load(name)
        let report = try analyzeFile(SharedCaptures.path("synthetic/\(name)"))
        let answered = truth.connections.filter { $0.disconnectReason != "0x3E" }
        #expect(report.connections.count == answered.count)
        for (expected, actual) in zip(answered, report.connections) {
            #expect(actual.accessAddress.map { Hex.code($0, width: 8) } == expected.accessAddress)
            #expect(actual.crcInit.map { Hex.code($0, width: 6) } == expected.crcInit)
            #expect(actual.peerAddress?.description == expected.peerAddress)
            #expect(actual.startUs == expected.startTsUs)
            #expect(actual.endUs == expected.endTsUs)
            #expect(actual.dangling == expected.dangling)
            #expect(actual.mtu == expected.mtu)
            #expect(actual.disconnectReason.map { Hex.code($0.rawValue) } == expected.disconnectReason)
        }
        let unanswered = truth.connections.filter { $0.disconnectReason == "0x3E" }
        for connection in unanswered {
            #expect(report.attempts.contains { $0.peerAddress?.description == connection.peerAddress
                && $0.createUs == connection.startTsUs && $0.endUs == connection.endTsUs && $0.outcome == .failed })
        }
    }

    /// Without a profile the rotating device is two devices; each address is listed once.
    @Test func devicesWithoutAProfile() throws {
        let report = try analyzeFile(SharedCaptures.path("synthetic/demo-faults.btsnoop"))
        #expect(report.devices.map { $0.addresses.map(\.address.description) } == [
            ["CE:71:E0:FD:77:B0"], ["C8:2B:96:0F:0B:0D"], ["6B:30:F9:0E:C7:DD"], ["24:0A:C4:76:70:EB"],
            ["41:E4:88:75:34:A2"],
        ])
        let rotating = report.devices[2]
        #expect(rotating.addresses[0].type == .randomResolvable)
        #expect(rotating.addresses[0].advertisements == 8 && rotating.addresses[0].scanResponses == 4)
        #expect(rotating.connectionIDs == [ConnectionID(number: 1)])
    }
}

/// Real captures: the cases the issue names.
@Suite(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
struct RealCaptureSessionTests {
    /// Android cancels and re-issues its background connection: 27 completes with 0x02 after
    /// LE Create Connection Cancel are cancelled attempts, not failures.
    @Test func powerStationCancelledAttempts() throws {
        let report = try analyzeFile(SharedCaptures.path("real/fossibot_btsnoop_hci.log"))
        #expect(report.attempts.filter { $0.outcome == .cancelled }.count == 27)
        #expect(report.attempts.filter { $0.outcome == .cancelled }.allSatisfy { $0.status?.rawValue == 0x02 })
        #expect(!report.failures.contains { $0.kind == .connectionFailed })
        #expect(report.connections.count == 6)
    }

    @Test func treadmillConnectionIsDangling() throws {
        let report = try analyzeFile(SharedCaptures.path("real/horizon74_btsnoop_hci.log"))
        #expect(report.connections.map(\.dangling) == [true])
        #expect(report.failures.isEmpty)
        #expect(report.notices.map(\.kind) == [.danglingConnection])
        #expect(report.connections[0].transactionTotals.byKey.map(\.value).reduce(0) { $0 + $1.count } == 306)
    }

    @Test(arguments: SharedCaptures.realCaptures().map(\.file).filter { $0 != "sardark_btsnooz_hci.log" })
    func everyRealCaptureAnalyzes(file: String) throws {
        let report = try analyzeFile(SharedCaptures.path("real/\(file)"))
        #expect(report.stats.records > 0)
    }
}
