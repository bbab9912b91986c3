import AnalyzerTestSupport
import BLEBase
import Testing
@testable import BLEVendorDecoding

/// `VendorSession` fed by hand with demo-lock frames: pairing, timeouts, link drops, the end of
/// the capture, commands that do not queue, response tables and status carriers.
struct SessionTests {
    static let lock = try! ProfileLoader.load(path: SamplePaths.profile("demo-lock.yaml"))
    static let write: UInt16 = 0x0010      // host → device (FFE1)
    static let notify: UInt16 = 0x0012     // device → host (FFE2)

    struct Feeder {
        var session: VendorSession
        var events: [VendorEvent] = []
        var record = 0

        init(profile: Profile = SessionTests.lock) {
            session = VendorSession(profile: profile, connection: ConnectionID(number: 1), mtu: 23)
        }

        mutating func command(_ cmd: UInt8, seq: UInt8, _ plain: [UInt8] = [], at ms: Int64, opcode: UInt8 = 0x52) {
            record += 1
            session.value(direction: .hostToDevice, attOpcode: opcode, handle: SessionTests.write,
                          uuid: BluetoothUUID(uint16: 0xFFE1),
                          bytes: ByteView(DemoLockFrame.encode(command: cmd, sequence: seq, plaintext: plain)),
                          timeUs: ms * 1000, record: record, into: &events)
        }

        mutating func response(_ cmd: UInt8, seq: UInt8, status: UInt8, at ms: Int64) {
            record += 1
            session.value(direction: .deviceToHost, attOpcode: 0x1B, handle: SessionTests.notify,
                          uuid: BluetoothUUID(uint16: 0xFFE2),
                          bytes: ByteView(DemoLockFrame.encode(command: cmd | 0x80, sequence: seq, plaintext: [status])),
                          timeUs: ms * 1000, record: record, into: &events)
        }

        var frames: [VendorFrame] { events.compactMap { if case .frame(let f) = $0 { f } else { nil } } }
        var failures: [VendorFailure] { events.compactMap { if case .failure(let f) = $0 { f } else { nil } } }
    }

    @Test func commandIsHeldUntilItsResponse() {
        var f = Feeder()
        f.command(0x10, seq: 0x5A, [1, 2, 3, 4, 5, 6], at: 1000)
        #expect(f.events.isEmpty)                        // waiting for its response
        f.response(0x10, seq: 0x5A, status: 0x00, at: 1040)
        #expect(f.frames.map(\.outcome) == [.ok, .ok])
        #expect(f.frames.map(\.matchedFrame) == [1, 0])
        #expect(f.frames.map(\.latencyUs) == [40_000, 40_000])
        #expect(f.frames.map(\.summary) == ["UNLOCK (0x10) seq 0x5A → ok in 40 ms",
                                            "UNLOCK response (0x90) seq 0x5A: status 0x00 ok"])
        #expect(f.failures.isEmpty)
    }

    /// Frames held behind a command that waits view their records' batches up to
    /// `maxHeldViews`; from the fifth held frame on, each keeps a copy of its bytes.
    @Test func framesHeldLongKeepTheirOwnBytes() {
        var session = VendorSession(profile: Self.lock, connection: ConnectionID(number: 1), mtu: 23)
        var events: [VendorEvent] = []
        func inBatch(_ frame: [UInt8]) -> ByteView {
            var reader = ByteReader([0xEE] + frame + [0xEE], range: 1..<1 + frame.count)
            return reader.readRemainingView()
        }
        session.value(direction: .hostToDevice, attOpcode: 0x52, handle: Self.write, uuid: BluetoothUUID(uint16: 0xFFE1),
                      bytes: inBatch(DemoLockFrame.encode(command: 0x10, sequence: 0x5A, plaintext: [1, 2, 3, 4, 5, 6])),
                      timeUs: 1_000_000, record: 1, into: &events)
        // Responses to commands never sent wait behind the UNLOCK, which waits for its own.
        for i in 0..<6 {
            session.value(direction: .deviceToHost, attOpcode: 0x1B, handle: Self.notify, uuid: BluetoothUUID(uint16: 0xFFE2),
                          bytes: inBatch(DemoLockFrame.encode(command: 0x91, sequence: UInt8(i), plaintext: [0x00])),
                          timeUs: 1_001_000 + Int64(i) * 1000, record: 2 + i, into: &events)
        }
        #expect(events.isEmpty)
        session.value(direction: .deviceToHost, attOpcode: 0x1B, handle: Self.notify, uuid: BluetoothUUID(uint16: 0xFFE2),
                      bytes: inBatch(DemoLockFrame.encode(command: 0x90, sequence: 0x5A, plaintext: [0x00])),
                      timeUs: 1_010_000, record: 8, into: &events)
        let frames = events.compactMap { if case .frame(let f) = $0 { f } else { nil } }
        #expect(frames.map(\.outcome) == [.ok] + Array(repeating: .unsolicited, count: 6) + [.ok])
        #expect(frames.map(\.raw.isWholeBuffer) == [false, false, false, false, true, true, true, true])
        #expect(frames[4].raw.array == DemoLockFrame.encode(command: 0x91, sequence: 3, plaintext: [0x00]))
    }

    /// A frame says where its bytes started to arrive: the first L2CAP fragment of its first
    /// value when the caller gives it, else that value's own record.
    @Test func framesCarryTheirFirstFragment() {
        var f = Feeder()
        f.command(0x10, seq: 0x5A, [1, 2, 3, 4, 5, 6], at: 1000)
        f.record += 1
        f.session.value(direction: .deviceToHost, attOpcode: 0x1B, handle: Self.notify,
                        uuid: BluetoothUUID(uint16: 0xFFE2),
                        bytes: ByteView(DemoLockFrame.encode(command: 0x90, sequence: 0x5A, plaintext: [0])),
                        timeUs: 1_040_000, record: 9, firstFragment: (record: 7, timeUs: 1_030_000), into: &f.events)
        #expect(f.frames.map(\.firstFragmentRecord) == [1, 7])
        #expect(f.frames.map(\.firstFragmentTimeUs) == [1_000_000, 1_030_000])
        #expect(f.frames.map(\.firstRecord) == [1, 9])
    }

    /// Frames decoded without their plaintext have the same outcomes; `plaintext(of:)` gives it back.
    @Test func framesWithoutPlaintextGetItBack() {
        func exchange(keepsPlaintext: Bool) -> Feeder {
            var f = Feeder()
            f.session.keepsPlaintext = keepsPlaintext
            f.command(0x11, seq: 0x5B, [7, 8], at: 0)
            f.response(0x11, seq: 0x5B, status: 0x03, at: 25)
            return f
        }
        let kept = exchange(keepsPlaintext: true)
        let lean = exchange(keepsPlaintext: false)
        #expect(kept.frames.map(\.plaintext) == [[7, 8], [0x03]])
        #expect(lean.frames.map(\.plaintext) == [nil, nil])
        #expect(lean.frames.map { lean.session.plaintext(of: $0) } == [[7, 8], [0x03]])
        var restored = lean.frames
        for i in restored.indices { restored[i].plaintext = kept.frames[i].plaintext }
        #expect(restored == kept.frames)
        #expect(lean.failures == kept.failures)
    }

    @Test func failureStatusFailsTheResponseAndItsCommand() {
        var f = Feeder()
        f.command(0x11, seq: 0x5B, at: 0)
        f.response(0x11, seq: 0x5B, status: 0x03, at: 25)
        #expect(f.frames.map(\.outcome) == [.failed, .failed])
        #expect(f.frames.map(\.summary) == ["LOCK (0x11) seq 0x5B → failed in 25 ms",
                                            "LOCK response (0x91) seq 0x5B: status 0x03 failed"])
        #expect(f.failures == [VendorFailure(kind: .statusFailure, timeUs: 25_000, detectedUs: 25_000, connection: ConnectionID(number: 1),
                                             frame: 1, summary: "response LOCK (0x91) seq 0x5B: status 0x03 says the command failed",
                                             record: 2)])
    }

    @Test func timeoutEndsTheWaitAtTheDeadline() {
        var f = Feeder()
        f.command(0x01, seq: 0x01, at: 0)
        f.response(0x01, seq: 0x01, status: 0x00, at: 3001)     // 1 ms after the 3 s timeout
        #expect(f.frames.map(\.outcome) == [.noResponse, .unsolicited])
        #expect(f.frames.map(\.summary) == ["GET_INFO (0x01) seq 0x01 → no response", "unsolicited GET_INFO (0x81) seq 0x01"])
        #expect(f.failures == [VendorFailure(kind: .noResponse, timeUs: 0, detectedUs: 3_000_000, connection: ConnectionID(number: 1), frame: 0,
                                             summary: "command GET_INFO (0x01) seq 0x01 got no response within 3000 ms", record: 1)])
    }

    @Test func responseJustInsideTheTimeoutPairs() {
        var f = Feeder()
        f.command(0x01, seq: 0x01, at: 0)
        f.response(0x01, seq: 0x01, status: 0x00, at: 3000)
        #expect(f.frames.map(\.outcome) == [.ok, .ok])
    }

    @Test func linkDropEndsWaitsAndPartialFrames() {
        var f = Feeder()
        f.command(0x20, seq: 0x07, at: 10)
        // The first 20 bytes of a longer response, then the link drops.
        let long = DemoLockFrame.encode(command: 0xA0, sequence: 0x07, plaintext: [UInt8](repeating: 0, count: 40))
        f.session.value(direction: .deviceToHost, attOpcode: 0x1B, handle: Self.notify,
                        uuid: BluetoothUUID(uint16: 0xFFE2), bytes: ByteView(Array(long.prefix(20))),
                        timeUs: 50_000, record: 9, into: &f.events)
        #expect(f.events.isEmpty)
        f.session.linkDown(timeUs: 60_000, into: &f.events)
        #expect(f.frames.map(\.outcome) == [.noResponse, .malformed])
        #expect(f.frames.last?.problem == "incomplete frame when the link dropped")
        #expect(f.frames.last?.summary == "malformed: incomplete frame when the link dropped (20 bytes)")
        #expect(f.failures.map(\.kind) == [.noResponse, .malformedFrame])
        #expect(f.failures.first?.summary == "command READ_LOG (0x20) seq 0x07 got no response before the link dropped")
        #expect(f.failures.first?.detectedUs == 60_000)
        // A new frame after the drop starts clean.
        f.command(0x01, seq: 0x08, at: 70)
        f.response(0x01, seq: 0x08, status: 0, at: 80)
        #expect(f.frames.suffix(2).map(\.outcome) == [.ok, .ok])
    }

    @Test func endOfCaptureEndsTheWait() {
        var f = Feeder()
        f.command(0x02, seq: 0x09, [0x66, 0x2A, 0x13, 0x19], at: 5)
        f.session.finish(timeUs: 100_000, into: &f.events)
        #expect(f.failures.map(\.summary) == ["command SET_TIME (0x02) seq 0x09 got no response before the capture ended; the "
            + "device-to-host characteristic was never subscribed on this connection before (no CCCD write, no device frame "
            + "in the capture), the usual cause"])
    }

    /// A CCCD write (0x0001) on the connection: an unanswered command gets no hint about subscribing.
    @Test func aSubscribedConnectionGetsNoSubscriptionHint() {
        var f = Feeder()
        f.session.value(direction: .hostToDevice, attOpcode: 0x12, handle: Self.notify + 1, uuid: nil,
                        bytes: ByteView([0x01, 0x00]), timeUs: 0, record: 1, into: &f.events)
        f.command(0x02, seq: 0x09, [0x66, 0x2A, 0x13, 0x19], at: 5)
        f.session.finish(timeUs: 100_000, into: &f.events)
        #expect(f.failures.map(\.summary) == ["command SET_TIME (0x02) seq 0x09 got no response before the capture ended"])
        #expect(f.failures.map(\.record) == [1])
    }

    @Test func aCommandWhileAnotherWaitsEndsTheWaitOnADeviceThatDoesNotQueue() {
        var f = Feeder()
        f.command(0x10, seq: 0x01, at: 0)
        f.command(0x11, seq: 0x02, at: 100)
        #expect(f.frames.map(\.outcome) == [.noResponse])
        #expect(f.failures.map(\.detectedUs) == [100_000])
        f.response(0x11, seq: 0x02, status: 0, at: 150)
        #expect(f.frames.map(\.outcome) == [.noResponse, .ok, .ok])
    }

    @Test func unacknowledgedWriteRequestGetsNoVendorFailure() {
        var f = Feeder()
        f.command(0x10, seq: 0x01, at: 0, opcode: 0x12)          // Write Request, never answered
        f.session.finish(timeUs: 10_000, into: &f.events)
        #expect(f.frames.map(\.outcome) == [.noResponse])
        #expect(f.failures.isEmpty)
    }

    @Test func crcMismatchIsItsOwnOutcomeAndWaitsForNothing() {
        var f = Feeder()
        f.session.value(direction: .hostToDevice, attOpcode: 0x52, handle: Self.write, uuid: BluetoothUUID(uint16: 0xFFE1),
                        bytes: ByteView(DemoLockFrame.encode(command: 0x11, sequence: 3, plaintext: [], corruptCRC: true)),
                        timeUs: 0, record: 1, into: &f.events)
        #expect(f.frames.map(\.outcome) == [.crcMismatch])
        #expect(f.frames.first?.summary == "LOCK (0x11) seq 0x03: crc mismatch")
        let crc = UInt16(DemoLockFrame.crc8Maxim([0xAA, 0x11, 0x03, 0x00, 0x00]))
        #expect(f.frames.first.map { [$0.checksumCarried, $0.checksumComputed] } == [crc ^ 0x5A, crc])
        #expect(f.failures.map(\.kind) == [.crcMismatch])
    }

    @Test func framesDescribeThemselvesWithTheContractKeys() {
        var f = Feeder()
        f.command(0x01, seq: 0x59, at: 1)
        f.response(0x01, seq: 0x59, status: 0, at: 2)
        let fields = f.frames.first?.fields ?? []
        #expect(fields.map(\.name) == ["id", "connection", "direction", "attOpcode", "handle", "firstTimeUs", "lastTimeUs",
                                       "firstRecord", "lastRecord", "fragments", "raw", "plaintext", "crcOk", "checksumCarried",
                                       "checksumComputed", "command",
                                       "commandName", "sequence", "status", "statusOk", "outcome", "matchedFrame",
                                       "latencyUs", "problem"])
        #expect(fields.first { $0.name == "raw" }?.value == .bytes([0xAA, 0x01, 0x59, 0x00, 0x00, 0xF4, 0x55]))
        #expect(fields.first { $0.name == "command" } == Field("command", .int(1), display: "GET_INFO (0x01)"))
        #expect(fields.first { $0.name == "status" }?.value == .null)        // a command has no status
        #expect(fields.first { $0.name == "outcome" }?.value == .string("ok"))
        #expect(f.frames.last?.fields.first { $0.name == "statusOk" }?.value == .bool(true))
        #expect(f.failures.isEmpty)
    }

    /// A two-byte command code, a response table (acknowledgements wait for nothing), and a
    /// status read only from the frames that carry one.
    static let table = """
        profile: table
        match: {name: {prefix: "T"}}
        channels:
          - {direction: host-to-device, handle: 0x0011, via: [write-request]}
          - {direction: device-to-host, handle: 0x0014, via: [notification]}
        framing: {sync: [0x55, 0xAA], length: {offset: 4, counts: payload}, payload: {offset: 5}}
        commands:
          command: {offset: 2, size: 2}
          names: {0x0100: ACK, 0x0102: GET_INFO}
          response: {command: {0x0102: 0x0102, 0x0301: 0x0300}}
          status: {offset: 1, success: [0], commands: [0x0300]}
        """

    @Test func responseTableAndStatusCarriers() throws {
        let profile = try ProfileLoader.load(yaml: Self.table, file: "t.yaml")
        #expect(profile.commands?.responseTable == [0x0102: 0x0102, 0x0301: 0x0300])
        #expect(profile.commands?.status?.commands == [0x0300])
        var session = VendorSession(profile: profile, connection: ConnectionID(number: 1), mtu: 23)
        var events: [VendorEvent] = []
        func send(_ direction: VendorDirection, _ bytes: [UInt8], _ ms: Int64) {
            session.value(direction: direction, attOpcode: direction == .hostToDevice ? 0x12 : 0x1B,
                          handle: direction == .hostToDevice ? 0x11 : 0x14, uuid: nil, bytes: ByteView(bytes),
                          timeUs: ms * 1000, record: Int(ms), into: &events)
        }
        send(.hostToDevice, [0x55, 0xAA, 0x01, 0x02, 0x00], 1)             // GET_INFO, no body
        send(.deviceToHost, [0x55, 0xAA, 0x01, 0x02, 0x02, 0x07, 0x36], 2) // its answer: 07 36 is data, not a status
        send(.deviceToHost, [0x55, 0xAA, 0x01, 0x12, 0x01, 0x50], 3)       // pushed record
        send(.hostToDevice, [0x55, 0xAA, 0x01, 0x00, 0x02, 0x12, 0x00], 4) // ACK of it: waits for nothing
        send(.hostToDevice, [0x55, 0xAA, 0x03, 0x01, 0x01, 0x00], 5)       // 0x0301
        send(.deviceToHost, [0x55, 0xAA, 0x03, 0x00, 0x02, 0x01, 0x05], 6) // 0x0300: request 01, result 05
        let frames = events.compactMap { if case .frame(let f) = $0 { f } else { nil } }
        #expect(frames.map(\.outcome) == [.ok, .ok, .unsolicited, .ok, .failed, .failed])
        #expect(frames.map(\.status) == [nil, nil, nil, nil, nil, 5])
        #expect(frames.map(\.matchedFrame) == [1, 0, nil, nil, 5, 4])
        #expect(frames.map(\.summary) == ["GET_INFO (0x0102) → ok in 1 ms", "GET_INFO response (0x0102): ok", "unsolicited 0x0112",
                                          "ACK (0x0100)", "0x0301 → failed in 1 ms", "response (0x0300): status 0x05 failed"])
    }

    @Test func responseTableLoadErrors() {
        let bad = Self.table.replacingOccurrences(of: "{0x0102: 0x0102, 0x0301: 0x0300}", with: "{0x0102: x}")
        #expect(throws: ProfileError(file: "t.yaml", line: 10, key: "commands.response.command.0x0102", message: "'x' is not an integer")) {
            try ProfileLoader.load(yaml: bad, file: "t.yaml")
        }
        let empty = Self.table.replacingOccurrences(of: "{0x0102: 0x0102, 0x0301: 0x0300}", with: "{}")
        #expect(throws: ProfileError(file: "t.yaml", line: 10, key: "commands.response.command", message: "needs at least one command")) {
            try ProfileLoader.load(yaml: empty, file: "t.yaml")
        }
    }
}
