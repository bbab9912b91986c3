import BLEBase
import Testing
@testable import BLEVendorDecoding

struct ProfileLoaderTests {
    static let minimal = """
        profile: t
        match:
          companyId: 0xFFFF
        channels:
          - direction: device-to-host
            handle: 0x0012
            via: [notification]
        framing:
          sync: aa

        """

    @Test func minimalProfileLoads() throws {
        let p = try ProfileLoader.load(yaml: Self.minimal, file: "t.yaml")
        #expect(p.framing.sync == [0xAA] && p.framing.length == .none)
        #expect(p.channels == [Channel(direction: .deviceToHost, characteristic: .handle(0x12), attOpcodes: [0x1B])])
    }

    @Test(arguments: [
        ("  lenght: 3\n", "t.yaml:10: framing.lenght: unknown key (expected one of: device-to-host, fixed, host-to-device, length, maxLength, payload, prefix, spansValues, sync, tail)"),
        ("  maxLength: 0\n", "t.yaml:10: framing.maxLength: must be in 1...65535, not 0"),
        ("  tail: zz\n", "t.yaml:10: framing.tail: 'zz' is neither hex bytes nor a list of bytes"),
        ("  length: {offset: -1, counts: payload}\n", "t.yaml:10: framing.length.offset: must be ≥ 0"),
        ("  length: {offset: 1, counts: words}\n", "t.yaml:10: framing.length.counts: 'words' is not one of payload, frame, after-field"),
    ])
    func framingErrorsNameLineAndKey(extra: String, message: String) {
        #expect(throws: ProfileError.self) { try ProfileLoader.load(yaml: Self.minimal + extra, file: "t.yaml") }
        do {
            _ = try ProfileLoader.load(yaml: Self.minimal + extra, file: "t.yaml")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test(arguments: [
        ("checksum: {algorithm: CRC-8/NOPE, at: -1}\n",
         "t.yaml:10: checksum.algorithm: 'CRC-8/NOPE' is not sum8, sum16, xor8 or a CRC catalogue name (CRC-8/MAXIM-DOW, CRC-16/MODBUS, …)"),
        ("obfuscation: {xorExpression: (0x5A - seq) mod 256}\n",
         "t.yaml:10: obfuscation.xorExpression: expression uses seq, which this profile does not define here"),
        ("obfuscation: {xorExpression: (0x5A - index mod 256}\n",
         "t.yaml:10: obfuscation.xorExpression: expression column 22: expected ')'"),
        ("match2: 1\n", "t.yaml:10: match2: unknown key (expected one of: channels, checksum, commands, description, framing, identity, match, obfuscation, profile)"),
        ("identity: {source: manufacturer-data, offset: 1, length: 4, format: mac}\n",
         "t.yaml:10: identity.length: a mac is 6 bytes, not 4"),
        ("commands: {command: {offset: 1}, response: {sameSequence: true}}\n",
         "t.yaml:10: commands.response.sameSequence: needs commands.sequence"),
    ])
    func sectionErrorsNameLineAndKey(extra: String, message: String) {
        do {
            _ = try ProfileLoader.load(yaml: Self.minimal + extra, file: "t.yaml")
            Issue.record("loaded")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func missingKeysAndBadYAML() {
        #expect(throws: ProfileError(file: "x.yaml", line: 1, key: "", message: "missing key 'match'")) {
            try ProfileLoader.load(yaml: "profile: x\n", file: "x.yaml")
        }
        #expect(throws: ProfileError.self) { try ProfileLoader.load(yaml: "profile: [\n", file: "x.yaml") }
        var unreadable = ProfileError(file: "x.yaml", line: nil, key: "", message: "cannot read /nonexistent/x.yaml")
        unreadable.unreadable = true
        #expect(throws: unreadable) { try ProfileLoader.load(path: "/nonexistent/x.yaml") }
    }

    @Test func jsonIsAccepted() throws {
        let json = """
            {"profile": "j", "match": {"name": {"regex": "^DEMO-[0-9A-F]{4}$"}},
             "channels": [{"direction": "host-to-device", "uuid": "FFE1", "via": ["write-command"]}],
             "framing": {"sync": [85, 170], "length": {"offset": 6, "size": 2, "endian": "little", "counts": "payload"},
                         "payload": {"offset": 10}},
             "checksum": {"crc": {"width": 16, "poly": "0x1021", "init": "0xFFFF"}, "at": 8, "endian": "little",
                          "range": {"from": 10, "to": 0}, "empty": 0}}
            """
        let p = try ProfileLoader.load(yaml: json, file: "j.json")
        #expect(p.framing.sync == [0x55, 0xAA])
        #expect(p.checksum?.algorithm.name == "CRC-16/IBM-3740")
        #expect(p.checksum?.emptyValue == 0)
    }

    @Test func matchingAndIdentity() throws {
        let p = try ProfileLoader.load(path: SamplePaths.profile("demo-lock.yaml"))
        // Manufacturer data after company 0xFFFF: product 01, MAC 00 1a 7d fd e6 f1, battery 0x57.
        let facts = AdvertisementFacts(localName: "DEMO-E6F1",
                                       manufacturerData: [.init(companyID: 0xFFFF, data: [0x01, 0x00, 0x1A, 0x7D, 0xFD, 0xE6, 0xF1, 0x57])],
                                       serviceUUIDs: [BluetoothUUID(uint16: 0xFFE0)])
        #expect(p.matches(facts, gattServices: [BluetoothUUID(uint16: 0xFFE0)]))
        #expect(!p.matches(facts, gattServices: []))
        #expect(p.identity(from: facts) == DeviceIdentity(value: "00:1A:7D:FD:E6:F1",
                                                          source: "manufacturer data 0xFFFF offset 1, 6 bytes MSB first"))
        let field = IdentityField(offset: 0, length: 2, msbFirst: false, format: .uint)
        #expect(field.render([0x34, 0x12]) == "4660")
        #expect(IdentityField(offset: 0, length: 2, msbFirst: true, format: .hex).render([0x34, 0x12]) == "3412")
        #expect(field.render([0x34]) == nil)
        let byName = NameMatcher.regex("^DEMO-([0-9A-F]{4})$")
        #expect(byName.firstMatch("DEMO-E6F1") == ["DEMO-E6F1", "E6F1"])
        #expect(!byName.matches(String(repeating: "A", count: 249)))
        #expect(NameMatcher.prefix("DEMO-").matches("DEMO-1"))
    }
}

enum SamplePaths {
    static func profile(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples/profiles/\(name)").path
    }
}

import Foundation
