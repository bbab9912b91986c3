import BLEBase
import Testing
@testable import BLEL2CAP

@Suite struct L2CAPHeaderTests {
    @Test func basicHeaderReadsLengthThenChannel() throws {
        var reader = ByteReader([
            0x07, 0x00,  // length 7
            0x04, 0x00,  // CID 0x0004
        ], layer: .l2cap)
        #expect(try L2CAPBasicHeader(parsing: &reader) == L2CAPBasicHeader(length: 7, channelID: .attribute))
    }

    @Test func basicHeaderTruncations() {
        let whole: [UInt8] = [0x07, 0x00, 0x04, 0x00]
        let expected: [DecodeError] = [
            .truncated(layer: .l2cap, field: "L2CAP length", at: 0, needed: 2, available: 0),
            .truncated(layer: .l2cap, field: "L2CAP length", at: 0, needed: 2, available: 1),
            .truncated(layer: .l2cap, field: "L2CAP channel ID", at: 2, needed: 2, available: 0),
            .truncated(layer: .l2cap, field: "L2CAP channel ID", at: 2, needed: 2, available: 1),
        ]
        for length in 0..<whole.count {
            #expect(throws: expected[length]) {
                var reader = ByteReader(Array(whole.prefix(length)), layer: .l2cap)
                _ = try L2CAPBasicHeader(parsing: &reader)
            }
        }
    }

    @Test func basicHeaderRoundTrips() throws {
        let header = L2CAPBasicHeader(length: 0x1234, channelID: .securityManager)
        var writer = ByteWriter()
        header.append(to: &writer)
        #expect(writer.bytes == [0x34, 0x12, 0x06, 0x00])
        var reader = ByteReader(writer.bytes)
        #expect(try L2CAPBasicHeader(parsing: &reader) == header)
    }

    @Test func channelNames() {
        let names: [UInt16: String] = [
            0x0001: "BR/EDR Signalling", 0x0002: "Connectionless", 0x0003: "AMP Manager", 0x0004: "ATT",
            0x0005: "LE Signalling", 0x0006: "SMP", 0x0007: "BR/EDR Security Manager",
            0x0040: "LE Dynamic (0x0040)", 0x007F: "LE Dynamic (0x007F)", 0x0080: "Dynamic (0x0080)",
            0x0008: "Unknown (0x0008)",
        ]
        for (raw, name) in names {
            #expect(ChannelID(rawValue: raw).name == name)
        }
        #expect(ChannelID(rawValue: 0x0041).isLEDynamic)
        #expect(!ChannelID(rawValue: 0x0080).isLEDynamic)
        #expect(ChannelID(rawValue: 0x0080).isDynamic)
        #expect(!ChannelID.attribute.isDynamic)
    }
}
