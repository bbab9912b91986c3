import AnalyzerTestSupport
import BLEBase
import Testing
@testable import BLEVendorDecoding

/// Every truncation of a frame gives exactly the fields that still fit and the problem that
/// names the first part that does not.
struct DecodedFieldsTests {
    static let lock = try! ProfileLoader.load(path: SamplePaths.profile("demo-lock.yaml"))

    /// SET_TIME seq 0x5A: key (0x5A − 0x5A) mod 256 = 0, so the payload is plain.
    static let setTime: [UInt8] = [
        0xAA,                   // sync
        0x02,                   // command SET_TIME
        0x5A,                   // sequence
        0x00, 0x04,             // payload length 4, big-endian
        0x66, 0x2A, 0x13, 0x19, // payload: Unix time 0x662A1319
        0x3D,                   // CRC-8/MAXIM of bytes 0..<9
        0x55,                   // tail
    ]

    /// A profile for device frames notified on handle 1, with `rules` (YAML lines) added.
    static func deviceFrames(_ rules: String) throws -> Profile {
        try ProfileLoader.load(yaml: """
            profile: t
            match: {companyId: 1}
            channels: [{direction: device-to-host, handle: 1, via: [notification]}]

            """ + rules, file: "t.yaml")
    }

    @Test func wholeFrame() {
        let fields = Fields(DecodedFields(frame: Self.setTime, profile: Self.lock, direction: .hostToDevice))
        #expect(fields == Fields(plaintext: [0x66, 0x2A, 0x13, 0x19], checksumOK: true, command: 0x02, sequence: 0x5A,
                                        status: nil, statusOK: nil, problem: nil))
    }

    @Test func everyTruncation() {
        for count in 0..<Self.setTime.count {
            let fields = Fields(DecodedFields(frame: Array(Self.setTime.prefix(count)), profile: Self.lock, direction: .hostToDevice))
            let problem = count < 7
                ? "\(count) bytes cannot hold a 5-byte header and 2-byte trailer"
                : "tail is \(Hex.string([Self.setTime[count - 1]])), expected 55"
            let expected = Fields(plaintext: nil, checksumOK: nil, command: count > 1 ? 0x02 : nil,
                                         sequence: count > 2 ? 0x5A : nil, status: nil, statusOK: nil, problem: problem)
            #expect(fields == expected, "\(count) bytes")
        }
    }

    /// A response whose checksum sits at a fixed offset and whose status is the payload's second byte.
    @Test func checksumAndStatusNeedTheirBytes() throws {
        let profile = try Self.deviceFrames("""
            framing: {payload: {offset: 1, trailer: 1}}
            checksum: {algorithm: xor8, at: 3, range: {from: 0, to: 3}}
            commands: {command: {offset: 0}, status: {offset: 1, success: [0]}}
            """)
        let frame: [UInt8] = [
            0x81,       // command
            0x00,       // payload[0]
            0x00,       // payload[1]: status
            0x81,       // trailer: xor8 of bytes 0..<3
        ]
        for count in 0...frame.count {
            let fields = Fields(DecodedFields(frame: Array(frame.prefix(count)), profile: profile, direction: .deviceToHost))
            let expected: Fields
            switch count {
            case 0, 1:
                expected = Fields(command: count == 1 ? 0x81 : nil,
                                         problem: "\(count) bytes cannot hold a 1-byte header and 1-byte trailer")
            case 2, 3: expected = Fields(command: 0x81, problem: "\(count) bytes cannot hold the checksum at 3")
            default: expected = Fields(plaintext: [0, 0], checksumOK: true, command: 0x81, status: 0, statusOK: true)
            }
            #expect(fields == expected, "\(count) bytes")
        }
    }

    /// Without the plaintext kept, every truncation of an obfuscated response still gives the
    /// same command, sequence, checksum, status and problem; only `plaintext` is left out.
    @Test func statusWithoutThePlaintext() {
        // UNLOCK's response, seq 0x13: key (0x5A − 0x13) = 0x47; status 0x01 (failure), then 0x7F.
        let response = DemoLockFrame.encode(command: 0x90, sequence: 0x13, plaintext: [0x01, 0x7F])
        #expect(response == [0xAA, 0x90, 0x13, 0x00, 0x02, 0x46, 0x38, response[7], 0x55])
        let prefixes = (0...response.count).map { Array(response.prefix($0)) }
        let kept = prefixes.map { Fields(DecodedFields(frame: $0, profile: Self.lock, direction: .deviceToHost)) }
        let lean = prefixes.map {
            Fields(DecodedFields(frame: ByteView($0), plan: FramePlan(Self.lock), direction: .deviceToHost, keepsPlaintext: false))
        }
        #expect(kept.last == Fields(plaintext: [0x01, 0x7F], checksumOK: true, command: 0x90, sequence: 0x13, status: 1, statusOK: false))
        #expect(lean == kept.map { fields in
            var withoutPlaintext = fields
            withoutPlaintext.plaintext = nil
            return withoutPlaintext
        })
    }

    /// A key that varies per byte still de-obfuscates the whole payload: a failure on any
    /// byte makes the frame malformed, whether its plaintext is kept or not.
    @Test func perByteKeyFailsTheSameWithoutThePlaintext() throws {
        let profile = try Self.deviceFrames("""
            framing: {payload: {offset: 1, trailer: 0}}
            obfuscation: {xorExpression: 7 / (index - 2)}
            commands: {command: {offset: 0}, status: {offset: 0, success: [0]}}
            """)
        let frame: [UInt8] = [0x81, 0x00, 0x00, 0x00]
        let lean = Fields(DecodedFields(frame: ByteView(frame), plan: FramePlan(profile), direction: .deviceToHost, keepsPlaintext: false))
        let kept = Fields(DecodedFields(frame: frame, profile: profile, direction: .deviceToHost))
        #expect(lean == kept)
        #expect(lean.problem?.hasPrefix("XOR key: ") == true)
    }
}

/// The key and response tables a plan works out once for one-byte `seq` and `cmd` give what
/// evaluating the expression per frame gives, failures included.
struct FramePlanTableTests {
    @Test func theDemoLockKeyTableIsItsExpression() throws {
        let plan = FramePlan(DecodedFieldsTests.lock)
        let table = try #require(plan.keyBySequence)
        #expect(table.count == 256)
        #expect((0...255).allSatisfy { table[$0] == UInt8((0x5A - $0 + 256) % 256) })
        #expect(plan.responseByCommand?.count == 256)
        #expect(plan.responseByCommand?[0x10] == 0x90 && plan.responseByCommand?[0x90] == 0x90)
    }

    /// Names by code: a command's own, and a response's through `cmd | 0x80`.
    @Test func theDemoLockNameTablesFollowItsRules() throws {
        let plan = FramePlan(DecodedFieldsTests.lock)
        let commands = try #require(plan.commandNameByCode)
        let responses = try #require(plan.responseNameByCode)
        #expect(commands.count == 256 && responses.count == 256)
        #expect(commands[0x10] == "UNLOCK" && commands[0x90] == nil && commands[0x03] == nil)
        #expect(responses[0x90] == "UNLOCK" && responses[0x81] == "GET_INFO" && responses[0xA0] == "READ_LOG")
        #expect(responses[0x83] == nil)
        #expect((0...255).allSatisfy {
            responses[$0] == plan.commandName(direction: .deviceToHost, command: $0, sequence: nil, raw: [])
                && commands[$0] == plan.commandName(direction: .hostToDevice, command: $0, sequence: nil, raw: [])
        })
    }

    /// `seq` 0 divides by zero: that frame is malformed with the expression's own error, the
    /// others decode with the key of their `seq`.
    @Test func aKeyThatFailsForOneSequenceStillFailsThatFrame() throws {
        let profile = try DecodedFieldsTests.deviceFrames("""
            framing: {payload: {offset: 2, trailer: 0}}
            obfuscation: {xorExpression: 255 / seq}
            commands: {command: {offset: 0}, sequence: {offset: 1}, response: {command: 64 / (cmd - 3)}}
            """)
        let plan = FramePlan(profile)
        let table = try #require(plan.keyBySequence)
        #expect(table[0] == nil && table[1] == 255 && table[2] == 127 && table[255] == 1)
        #expect(plan.responseByCommand?[3] == .some(nil) && plan.responseByCommand?[4] == 64 && plan.responseByCommand?[67] == 1)
        let failing = Fields(DecodedFields(frame: [0x81, 0x00, 0x11], plan: plan, direction: .deviceToHost))
        #expect(failing.problem == "XOR key: division by zero")
        let decoded = Fields(DecodedFields(frame: [0x81, 0x02, 0x11], plan: plan, direction: .deviceToHost))
        #expect(decoded == Fields(plaintext: [0x11 ^ 127], command: 0x81, sequence: 2))
    }

    /// Keys that read anything but `seq` (a frame byte, the length), or a wider `seq`, get no table.
    @Test func onlyOneByteSequenceKeysGetATable() throws {
        for rules in ["obfuscation: {xorExpression: 'byte[0] + seq'}\ncommands: {command: {offset: 0}, sequence: {offset: 1}}",
                      "obfuscation: {xorExpression: seq + 1}\ncommands: {command: {offset: 0}, sequence: {offset: 1, size: 2}}"] {
            let plan = FramePlan(try DecodedFieldsTests.deviceFrames("framing: {payload: {offset: 3, trailer: 0}}\n" + rules))
            #expect(plan.keyBySequence == nil, "\(rules)")
        }
    }
}

/// The fields of `DecodedFields`, built member by member for expectations.
struct Fields: Equatable {
    var plaintext: [UInt8]?
    var checksumOK: Bool?
    var command: Int?
    var sequence: Int?
    var status: Int?
    var statusOK: Bool?
    var problem: String?

    init(plaintext: [UInt8]? = nil, checksumOK: Bool? = nil, command: Int? = nil, sequence: Int? = nil, status: Int? = nil,
         statusOK: Bool? = nil, problem: String? = nil) {
        (self.plaintext, self.checksumOK, self.command, self.sequence) = (plaintext, checksumOK, command, sequence)
        (self.status, self.statusOK, self.problem) = (status, statusOK, problem)
    }

    init(_ d: DecodedFields) {
        self.init(plaintext: d.plaintext, checksumOK: d.checksumOK, command: d.command, sequence: d.sequence, status: d.status,
                  statusOK: d.statusOK, problem: d.problem)
    }
}

extension DecodedFields {
    /// The fields of one frame read straight from a profile (sessions share one `FramePlan`).
    init(frame raw: [UInt8], profile: Profile, direction: VendorDirection) {
        self.init(frame: ByteView(raw), plan: FramePlan(profile), direction: direction)
    }
}
