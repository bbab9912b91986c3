import AnalyzerTestSupport
import Foundation
import Testing
import BLEVendorDecoding
import Yams

/// docs/profile.schema.json against the sample profiles (converted from YAML to JSON with the
/// types YAML resolves: `0xFFFF` is an integer, `FFE0` a string, keys keep their text).
struct SchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func validator() throws -> JSONSchemaValidator {
        try JSONSchemaValidator(schema: Data(contentsOf: root.appendingPathComponent("docs/profile.schema.json")))
    }

    static func json(_ node: Node) -> Any {
        switch node {
        case .mapping(let mapping):
            var object: [String: Any] = [:]
            for (key, value) in mapping { object[key.scalar?.string ?? ""] = json(value) }
            return object
        case .sequence(let sequence):
            return sequence.map(json)
        case .scalar(let scalar):
            switch node.tag {
            case Tag(.null): return NSNull()
            case Tag(.bool): return node.bool ?? scalar.string
            case Tag(.int): return node.int ?? scalar.string
            case Tag(.float): return node.float ?? scalar.string
            default: return scalar.string
            }
        }
    }

    static func errors(yaml: String) throws -> [String] {
        let node = try #require(try Yams.compose(yaml: yaml))
        let data = try JSONSerialization.data(withJSONObject: json(node))
        return try validator().validate(data).map(\.description)
    }

    static let samples = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Samples/profiles").path))?
        .filter { $0.hasSuffix(".yaml") }.sorted() ?? []

    @Test func thereAreSamples() {
        #expect(Self.samples == ["battery-monitor.yaml", "demo-lock.yaml", "fossibot-power-station.yaml", "horizon-treadmill.yaml",
                                 "light-controller.yaml"])
    }

    @Test(arguments: samples)
    func sampleValidates(name: String) throws {
        let yaml = try String(contentsOf: Self.root.appendingPathComponent("Samples/profiles/\(name)"), encoding: .utf8)
        #expect(try Self.errors(yaml: yaml) == [])
    }

    @Test func schemaRejectsWhatTheLoaderRejects() throws {
        let base = "profile: x\nmatch: {companyId: 0x10000}\nchannels: [{direction: up, uuid: FFE1, handle: 3, via: [notification]}]\n"
            + "framing: {lenght: 3, sync: zz}\nchecksum: {algorithm: sum8, crc: {width: 8, poly: 7}, at: -1}\n"
        #expect(try Self.errors(yaml: base).sorted() == [
            "$.channels[0].direction: up is not one of [\"host-to-device\", \"device-to-host\"]",
            "$.channels[0]: matches 2 of the oneOf schemas, not exactly 1",
            "$.checksum: matches 2 of the oneOf schemas, not exactly 1",
            "$.framing.lenght: property not allowed",
            "$.framing.sync: \"zz\" does not match ^(0[xX])?([0-9a-fA-F]{2}[ :-]?)*$",
            "$.match.companyId: 65536 > maximum 65535",
        ])
    }

    @Test func jsonProfilesUseStringsForHex() throws {
        let json = """
            {"profile": "j", "match": {"companyId": "0xFFFF", "name": {"regex": "^A"}},
             "channels": [{"direction": "device-to-host", "handle": "0x0012", "via": ["indication"]}],
             "framing": {"sync": "aa", "fixed": 20},
             "commands": {"command": {"offset": 1}, "names": {"0x01": "ON"}, "response": {"command": "plus-1"}}}
            """
        #expect(try Self.errors(yaml: json) == [])
        let profile = try ProfileLoader.load(yaml: json, file: "j.json")     // and the loader agrees
        #expect(profile.match.companyID == 0xFFFF && profile.framing.length == .fixed(20))
    }
}
