import BLEBase
import Testing
@testable import BLEVendorDecoding

/// Each identity source, loaded from YAML and applied to advertising facts.
struct IdentityTests {
    static func profile(identity: String) throws(ProfileError) -> Profile {
        try ProfileLoader.load(yaml: """
            profile: id
            match: {companyId: 0x0059}
            identity: \(identity)
            channels: [{direction: device-to-host, handle: 1, via: [notification]}]
            framing: {}
            """, file: "id.yaml")
    }

    /// Manufacturer data of company 0x0059 (the bytes after the company identifier).
    static let facts = AdvertisementFacts(
        localName: "SENSOR 4F2A-17",
        manufacturerData: [
            .init(companyID: 0x004C, data: [0x02, 0x15]),                              // another company
            .init(companyID: 0x0059, data: [0x01,                                       // product
                                            0xF1, 0xE6, 0xFD, 0x7D, 0x1A, 0x00,         // MAC, LSB first
                                            0x34, 0x12]),                               // serial 0x1234, LE
        ],
        serviceData: [.init(uuid: BluetoothUUID(uint16: 0xFE95), data: [0x30, 0x58, 0xDE, 0xAD, 0xBE, 0xEF])])

    @Test(arguments: [
        ("{source: manufacturer-data, companyId: 0x0059, offset: 1, length: 6, order: lsb-first, format: mac}",
         "00:1A:7D:FD:E6:F1", "manufacturer data 0x0059 offset 1, 6 bytes LSB first"),
        ("{source: manufacturer-data, companyId: 0x0059, offset: 1, length: 6, order: msb-first, format: mac}",
         "F1:E6:FD:7D:1A:00", "manufacturer data 0x0059 offset 1, 6 bytes MSB first"),
        ("{source: manufacturer-data, companyId: 0x0059, offset: 7, length: 2, order: lsb-first, format: uint}",
         "4660", "manufacturer data 0x0059 offset 7, 2 bytes LSB first"),
        ("{source: manufacturer-data, companyId: 0x0059, offset: 7, length: 2, order: msb-first, format: uint}",
         "13330", "manufacturer data 0x0059 offset 7, 2 bytes MSB first"),
        ("{source: manufacturer-data, companyId: 0x0059, offset: 7, length: 2, order: lsb-first, format: hex}",
         "1234", "manufacturer data 0x0059 offset 7, 2 bytes LSB first"),
        ("{source: manufacturer-data, offset: 0, length: 2}",                 // any company: the first that fits
         "0215", "manufacturer data 0x004C offset 0, 2 bytes MSB first"),
        ("{source: service-data, uuid: FE95, offset: 2, length: 4, format: hex}",
         "deadbeef", "service data FE95 offset 2, 4 bytes MSB first"),
        ("{source: service-data, uuid: FE95, offset: 2, length: 4, order: lsb-first, format: uint}",
         "4022250974", "service data FE95 offset 2, 4 bytes LSB first"),
        ("{source: name, regex: \"^SENSOR ([0-9A-F]{4})-\"}", "4F2A", "local name"),
    ])
    func extracts(identity: String, value: String, source: String) throws {
        let p = try Self.profile(identity: identity)
        #expect(p.identity(from: Self.facts) == DeviceIdentity(value: value, source: source))
    }

    @Test(arguments: [
        "{source: manufacturer-data, companyId: 0x0059, offset: 4, length: 6, format: mac}",   // runs past the data
        "{source: manufacturer-data, companyId: 0x0001, offset: 0, length: 1}",                // no such company
        "{source: service-data, uuid: 180F, offset: 0, length: 1}",                            // no such service data
        "{source: name, regex: \"^LOCK-(.*)$\"}",                                              // no match
        "{source: name, regex: \"^SENSOR\"}",                                                  // no group
    ])
    func absentWhenTheAdvertisingLacksIt(identity: String) throws {
        #expect(try Self.profile(identity: identity).identity(from: Self.facts) == nil)
    }

    @Test(arguments: ["", "identity: ~\n", "identity: null\n", "identity:\n"])
    func noIdentityRule(line: String) throws {
        let p = try ProfileLoader.load(yaml: "profile: x\nmatch: {companyId: 1}\n\(line)channels: [{direction: device-to-host, "
                                       + "handle: 1, via: [notification]}]\nframing: {}\n", file: "x.yaml")
        #expect(p.identity == nil && p.identity(from: Self.facts) == nil)
    }

    @Test(arguments: [
        ("{source: service-data, offset: 0, length: 1}", "id.yaml:3: identity: missing key 'uuid'"),
        ("{source: name}", "id.yaml:3: identity: missing key 'regex'"),
        ("{source: name, regex: \"(\"}", "id.yaml:3: identity.regex: not a valid regular expression"),
        ("{source: manufacturer-data, offset: 0, length: 9, format: uint}", "id.yaml:3: identity.length: a uint is at most 8 bytes"),
        ("{source: manufacturer-data, offset: 0, length: 2, order: big}",
         "id.yaml:3: identity.order: 'big' is not one of msb-first, lsb-first"),
        ("{source: advertising, offset: 0, length: 2}",
         "id.yaml:3: identity.source: 'advertising' is not one of manufacturer-data, service-data, name"),
    ])
    func loadErrors(identity: String, message: String) {
        do {
            _ = try Self.profile(identity: identity)
            Issue.record("loaded")
        } catch {
            #expect(error.description == message)
        }
    }
}
