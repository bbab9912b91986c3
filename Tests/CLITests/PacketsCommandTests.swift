import AnalyzerTestSupport
import BLEBase
import Foundation
import Testing

/// `bledecode packets` end to end on the project's own samples.
@Suite(.serialized)
struct PacketsCommandTests {
    static let containers = ["demo-lock.btsnoop", "demo-lock.pcap", "demo-lock.pcapng", "demo-lock.pklg",
                             "demo-lock.le.pklg", "demo-lock.btsnoop.gz"]

    /// Every container of the same scenario lists the same packets.
    @Test(arguments: containers)
    func listingEqualsGolden(sample: String) throws {
        let run = try CLI.run(["packets", CLI.sample(sample)])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        try Golden.check(run.stdout, against: "packets-demo-lock.txt")
    }

    @Test func verboseListingEqualsGolden() throws {
        let run = try CLI.run(["packets", "-v", CLI.sample("demo-lock.btsnoop")])
        #expect(run.status == 0)
        try Golden.check(run.stdout, against: "packets-demo-lock-verbose.txt")
    }

    @Test func jsonLinesEqualGolden() throws {
        let run = try CLI.run(["packets", "--json", CLI.sample("demo-lock.pcapng")])
        #expect(run.status == 0)
        try Golden.check(run.stdout, against: "packets-demo-lock.jsonl")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 164)
        var attOpcodes: [Int: Int] = [:]
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let att = object?["att"] as? [String: Any], let opcode = att["opcode"] as? Int {
                attOpcodes[opcode, default: 0] += 1
            }
        }
        // The same counts as `tshark -r Samples/demo-lock.pcapng -T fields -e btatt.opcode`.
        #expect(attOpcodes == [0x01: 8, 0x02: 1, 0x03: 1, 0x04: 6, 0x05: 6, 0x08: 12, 0x09: 8, 0x0A: 2, 0x0B: 1,
                               0x10: 4, 0x11: 2, 0x12: 10, 0x13: 8, 0x1B: 8, 0x52: 1])
    }

    @Test func absoluteTimesAreUTC() throws {
        let run = try CLI.run(["packets", "--absolute", CLI.sample("demo-lock.btsnoop")])
        #expect(run.stdout.split(separator: "\n").first
                == "     1  2024-04-25T08:23:52.000000Z  TX   LE Set Scan Parameters active interval 10.00 ms window 20.00 ms")
    }

    @Test func standardInputIsACapture() throws {
        let bytes = try Data(contentsOf: SharedCaptures.packageRoot.appendingPathComponent("Samples/demo-lock.pcap"))
        let run = try CLI.run(["packets", "-"], stdin: bytes)
        #expect(run.status == 0)
        try Golden.check(run.stdout, against: "packets-demo-lock.txt")
    }

    /// A device name carrying an escape sequence is shown, never executed by the terminal.
    @Test func hostileNamesAreEscaped() throws {
        let run = try CLI.run(["packets", CLI.sample("demo-lock.btsnoop")])
        #expect(!run.stdout.contains("\u{1B}"))
        #expect(run.stdout.contains(#"name "Scale\x1B[31m""#))
    }

    @Test func notACaptureExitsWithTwo() throws {
        let run = try CLI.run(["packets", "Package.swift"])
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == """
            bledecode: error: Package.swift at byte 0: not a capture file (starts with 2f2f207377696674 "// swift"; \
            no btsnoop, pcap, pcapng, gzip or PacketLogger signature)

            """)
    }

    @Test func missingFileExitsWithTwo() throws {
        let run = try CLI.run(["packets", "no-such.btsnoop"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("bledecode: error: no-such.btsnoop: "))
    }

    @Test func usageErrorExitsWithTwo() throws {
        let run = try CLI.run(["packets", "--no-such-flag", CLI.sample("demo-lock.btsnoop")])
        #expect(run.status == 2)
    }

    @Test(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
    func truncatedLastRecordIsAWarningAndExitsZero() throws {
        let run = try CLI.run(["packets", SharedCaptures.path("synthetic/demo-faults.btsnoop")])
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: "\n").count == 546)
        #expect(run.stderr == "bledecode: warning: \(SharedCaptures.path("synthetic/demo-faults.btsnoop")): record 547 at byte 23650: file ends inside the record: 30 of 60 bytes\n")
    }

    @Test(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
    func corruptCaptureExitsWithOne() throws {
        let path = SharedCaptures.path("real/sardark_btsnooz_hci.log")
        let run = try CLI.run(["packets", path])
        #expect(run.status == 1)
        #expect(run.stderr == "bledecode: error: \(path): record 1 at byte 16: impossible included length 3269633792\n")
    }
}

/// `bledecode packets` narrowed like the timeline, each line naming its connection and device.
@Suite(.serialized)
struct PacketsFilterTests {
    static let lock = CLI.sample("demo-lock.btsnoop")

    /// The record numbers of a listing's lines.
    static func records(_ arguments: [String]) throws -> [Int] {
        let run = try CLI.run(["packets"] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").compactMap { Int($0.prefix(6).trimmingCharacters(in: .whitespaces)) }
    }

    @Test func connectionSelectsItsPacketsFromCompleteToDisconnection() throws {
        let c2 = try Self.records([Self.lock, "--connection", "C2"])
        #expect(c2.first == 93 && c2.last == 145)
        let run = try CLI.run(["packets", Self.lock, "--connection", "c2"])
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == c2.count)
        #expect(lines.allSatisfy { $0.contains("  C2 D2  ") })
        #expect(lines.first == "    93      1.944500  RX   C2 D2  LE Enhanced Connection Complete [v2] handle 0x0041 status Success role central peer C8:2B:96:41:07:B2 (public) interval 15.00 ms")
        #expect(lines.last == "   145      6.809500  RX   C2 D2  Disconnection Complete handle 0x0041 reason Connection Timeout (0x08)")
        let bad = try CLI.run(["packets", Self.lock, "--connection", "D2"])
        #expect(bad.status == 2 && bad.stderr.contains("--connection") && bad.stdout.isEmpty)
    }

    /// By id, address, identity or part of a name: D1 had two connections (C1 and C3).
    @Test(arguments: ["D1", "5c:3a:91:0e:c7:21", "lock-a1"])
    func deviceSelectsEveryConnectionOfIt(device: String) throws {
        let records = try Self.records([Self.lock, "--device", device])
        let c1 = try Self.records([Self.lock, "--connection", "C1"])
        let c3 = try Self.records([Self.lock, "--connection", "C3"])
        #expect(!c1.isEmpty && !c3.isEmpty)
        #expect(records == c1 + c3)
    }

    /// fossibot: POWER-0084 (D3) is named only after its first connection (C1, records 312 and
    /// 332) failed. From the file, `--device` knows the device whole and lists all six of its
    /// connections; from standard input it can only match as the name is learned.
    @Test func deviceNamedLateSelectsItsEarlierConnections() throws {
        let path = SharedCaptures.path("real/fossibot_btsnoop_hci.log")
        let records = try Self.records([path, "--device", "POWER-0084"])
        let connections = try Self.records([path] + (1...6).flatMap { ["--connection", "C\($0)"] })
        #expect(records.prefix(3) == [312, 332, 1208])
        #expect(records == connections)
        let piped = try CLI.run(["packets", "-", "--device", "POWER-0084"], stdin: try Data(contentsOf: URL(fileURLWithPath: path)))
        let pipedRecords = piped.stdout.split(separator: "\n").compactMap { Int($0.prefix(6).trimmingCharacters(in: .whitespaces)) }
        #expect(pipedRecords == Array(records.dropFirst(2)))
    }

    /// crackle_lesc: a start fragment says what PDU it begins (tshark: "L2CAP Fragment Start"):
    /// 71 the SMP Pairing Public Key completed at 75 (4 + 65 bytes), 93 the answer whose
    /// continuation the sniffer lost (98 starts a new PDU).
    @Test func startFragmentsNameThePDUTheyBegin() throws {
        let run = try CLI.run(["packets", SharedCaptures.path("real/crackle_lesc.pcapng"), "--records", "71-75"])
        #expect(run.stdout.split(separator: "\n").map(String.init) == [
            "    71      1.828925  C→P  C1 D1  LL Data start 27 bytes: starts a 69-byte L2CAP PDU on SMP: Pairing Public Key",
            "    72      1.829167  P→C  C1 D1  Empty PDU",
            "    73      1.829589  C→P  C1 D1  LL Data continuation 27 bytes",
            "    74      1.829845  P→C  C1 D1  Empty PDU",
            "    75      1.830171  C→P  C1 D1  SMP Pairing Public Key",
        ])
        let lost = try CLI.run(["packets", SharedCaptures.path("real/crackle_lesc.pcapng"), "--records", "93"])
        #expect(lost.stdout == "    93      2.368654  P→C  C1 D1  LL Data start 27 bytes: starts a 46-byte L2CAP PDU on ATT: "
                + "Read By Group Type Response\n")
    }

    /// The record a link starts with is the link's: garmin's CONNECT_IND (4417, AA 0x5065536B)
    /// opens C1, and isap's BR/EDR Connection Completes open C1 and C2 (the events' bodies, as tshark
    /// reads record 33: handle 0x002a, 00:13:e0:49:b9:ca, ACL, encryption off).
    @Test func theRecordALinkStartsWithIsTheLinks() throws {
        let garmin = try CLI.run(["packets", SharedCaptures.path("real/garmin.pcapng"), "--connection", "C1"])
        #expect(garmin.stdout.hasPrefix("  4417     37.793017   ?   C1 D1  CONNECT_IND 40:63:DE:11:1C:3D → D1:5C:F0:EE:02:8F AA "
                                        + "0x5065536b interval 30.00 ms timeout 720 ms hop 14\n"))
        let isap = try CLI.run(["packets", SharedCaptures.path("real/isap_hci_dump.pklg"), "--connection", "C2"])
        #expect(isap.stdout.hasPrefix("   106    651.230916  RX   C2 D1  Connection Complete handle 0x002A status Success peer "
                                      + "00:13:E0:49:B9:CA ACL encryption off\n"))
    }

    /// Test tools reuse one access address, and a sniffer may miss a link's end: each CONNECT_IND
    /// belongs to the link it starts, not to the one still up on its address.
    @Test func aConnectIndOnAnAddressStillUpStartsTheNextLink() throws {
        var s = AirScenario()
        let central = BluetoothAddress("C0:11:22:33:44:55")!, peripheral = BluetoothAddress("D1:5C:F0:EE:02:8F")!
        s.advertise(peripheral)
        for _ in 0..<2 {
            s.connectInd(initA: central, advA: peripheral, accessAddress: 0x5065_4BD1)
            s.wait(ms: 2)
            s.att(0x5065_4BD1, .central, [0x0A, 0x01, 0x00])
            s.att(0x5065_4BD1, .peripheral, [0x0B, 0x01])
            s.wait(ms: 200)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reused-aa-\(UUID().uuidString).pcap").path
        try Data(s.pcap).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lines = try CLI.run(["packets", path]).stdout.split(separator: "\n")
        #expect(lines.filter { $0.contains("CONNECT_IND") }.map { $0.contains(" C1 D1  ") } == [true, false])
        #expect(lines.filter { $0.contains("CONNECT_IND") }.map { $0.contains(" C2 D1  ") } == [false, true])
    }

    /// A query that names no device: nothing listed, a warning naming the capture's devices.
    @Test func deviceThatMatchesNothingIsAWarning() throws {
        let run = try CLI.run(["packets", Self.lock, "--device", "nothing-like-it"])
        #expect(run.status == 0 && run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("bledecode: warning: --device nothing-like-it: no device matched; the capture has D1 (LOCK-A101)"))
    }

    /// A Read Response carries no handle: it is about its request's.
    @Test func handleSelectsRequestsAndTheirResponses() throws {
        let run = try CLI.run(["packets", Self.lock, "--handle", "0x000c", "--connection", "C1"])
        #expect(run.stdout == """
                73      0.921000  TX   C1 D1  ATT Read Request handle 0x000C
                75      0.953500  RX   C1 D1  ATT Read Response value 57

            """)
    }

    /// By the characteristic's UUID: its value handle and its descriptors (the CCCD of FFE2).
    @Test func uuidSelectsTheCharacteristicAndItsDescriptors() throws {
        let run = try CLI.run(["packets", Self.lock, "--uuid", "FFE2", "--records", "1-79"])
        #expect(run.stdout == """
                70      0.887250  TX   C1 D1  ATT Write Request handle 0x0013 value 0100
                72      0.919750  RX   C1 D1  ATT Write Response
                79      1.028500  RX   C1 D1  ATT Handle Value Notification handle 0x0012 value aa8159000801000503403031300655

            """)
    }

    @Test func timesAndRecordsNarrowTheListing() throws {
        #expect(try Self.records([Self.lock, "--records", "100-104"]) == [100, 101, 102, 103, 104])
        #expect(try Self.records([Self.lock, "--records", "162-"]) == [162, 163, 164])
        #expect(try Self.records([Self.lock, "--records", "7"]) == [7])
        #expect(try Self.records([Self.lock, "--since", "9.26", "--until", "9.2678"]) == [164])
        #expect(try Self.records([Self.lock, "--since", "2024-04-25T08:24:01.236Z"]) == [163, 164])
        // Times stay relative to the capture's first record, not the first one listed.
        let run = try CLI.run(["packets", Self.lock, "--records", "164"])
        #expect(run.stdout.hasPrefix("   164      9.267750  RX   C3 D1  ATT Error Response to Read Request"))
        #expect(try CLI.run(["packets", Self.lock, "--records", "9-3"]).status == 2)
    }

    @Test func onlyChoosesProtocols() throws {
        let hci = try Self.records([Self.lock, "--only", "hci"])
        let att = try Self.records([Self.lock, "--only", "att"])
        let all = try Self.records([Self.lock])
        #expect(att.count == 78 && hci.count == 84)
        #expect(Set(att).isDisjoint(with: hci))
        #expect(try Self.records([Self.lock, "--only", "att", "--only", "hci"]) == all.filter { Set(att + hci).contains($0) })
        #expect(try Self.records([Self.lock, "--only", "smp"]) == [])
        #expect(try Self.records([Self.lock, "--only", "ll"]) == [])
        #expect(try CLI.run(["packets", Self.lock, "--only", "tcp"]).status == 2)
    }

    @Test func filtersCombine() throws {
        let records = try Self.records([Self.lock, "--device", "LOCK-A101", "--only", "att", "--handle", "0x0010",
                                        "--since", "5"])
        #expect(records == [158, 160])
    }

    @Test func jsonLinesNameConnectionAndDevice() throws {
        let run = try CLI.run(["packets", "--json", Self.lock, "--connection", "C3", "--only", "att"])
        let objects = try run.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(!objects.isEmpty)
        #expect(objects.allSatisfy { $0["connection"] as? String == "C3" && $0["device"] as? String == "D1" })
        let first = try #require(try JSONSerialization.jsonObject(with: Data(try CLI.run(["packets", "--json", Self.lock, "--records", "1"]).stdout.utf8)) as? [String: Any])
        #expect(first["connection"] == nil && first["device"] == nil)
    }

    /// With the report's profiles, device ids are the report's: its identity rule ties a device's
    /// addresses together (demo-faults: C5 is D3 again, under another address).
    @Test(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
    func deviceIdsAreTheReportsWithTheSameProfile() throws {
        let capture = SharedCaptures.path("synthetic/demo-faults.btsnoop")
        let profile = "Samples/profiles/demo-lock.yaml"
        let report = try CLI.run(["report", "--format", "json", capture, "--profile", profile])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let devices = Dictionary(uniqueKeysWithValues: (json["connections"] as? [[String: Any]] ?? []).compactMap { c in
            (c["id"] as? String).map { ($0, c["device"] as? String ?? "") }
        })
        #expect(devices["C5"] == "D3")
        let run = try CLI.run(["packets", capture, "--profile", profile, "--only", "att"])
        var seen: [String: Set<String>] = [:]
        for line in run.stdout.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count > 4, words[3].hasPrefix("C"), words[4].hasPrefix("D") else { continue }
            seen[String(words[3]), default: []].insert(String(words[4]))
        }
        #expect(seen.count >= 5)
        for (connection, ids) in seen { #expect(ids == [devices[connection] ?? "?"], "\(connection)") }
    }

    /// `--full` prints a value whole; a value that is text also shows as text, escaped.
    @Test func fullValuesAndText() throws {
        let peer = BluetoothAddress("C0:11:22:33:44:55")!
        var s = HCIScenario()
        s.connectionComplete(handle: 0x0040, peer: peer, random: true, intervalUnits: 24)
        s.writeCommand(handle: 0x0040, attribute: 0x0010, value: Array("AT+VER\r\n".utf8))
        s.writeCommand(handle: 0x0040, attribute: 0x0010, value: Array(0..<40))
        s.writeCommand(handle: 0x0040, attribute: 0x0010, value: Array("say \"hi\"\u{1B}".utf8))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-full-\(UUID().uuidString).btsnoop").path
        try Data(CaptureWriter.btsnoop(s.records)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let cut = try CLI.run(["packets", path, "--only", "att"]).stdout.split(separator: "\n")
        #expect(cut.map { $0.drop { $0 != "A" } } == [
            #"ATT Write Command handle 0x0010 value 41542b5645520d0a "AT+VER\r\n""#,
            "ATT Write Command handle 0x0010 value 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f…",
            "ATT Write Command handle 0x0010 value 73617920226869221b",
        ])
        let full = try CLI.run(["packets", path, "--only", "att", "--full"]).stdout.split(separator: "\n")
        #expect(full[1].hasSuffix("value " + (0..<40).map { String(format: "%02x", $0) }.joined()))
        #expect(full[0].hasSuffix(#""AT+VER\r\n""#))
        #expect(full[0].contains("  C1 D1  "))
    }
}
