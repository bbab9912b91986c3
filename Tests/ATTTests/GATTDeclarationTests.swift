import BLEBase
import Testing
@testable import BLEATT

@Suite struct GATTDeclarationTests {
    @Test func characteristicDeclarationsFromReadByTypeResponse() throws {
        let pdu = try decode([0x09,                                      // opcode: Read By Type Response
                              0x15,                                      // length 21
                              0x0B, 0x00,                                // declaration handle 0x000B
                              0x1A,                                      // properties: Read|Write|Notify
                              0x0C, 0x00]                                // value handle 0x000C
                             + [0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0,   // UUID 6E400003-B5A3-…,
                                0x93, 0xF3, 0xA3, 0xB5, 0x03, 0x00, 0x40, 0x6E])  // least significant byte first
        guard case let .readByTypeResponse(response) = pdu.parameters else {
            Issue.record("not a Read By Type Response: \(pdu)")
            return
        }
        let declarations = try response.characteristicDeclarations()
        #expect(declarations == [CharacteristicDeclaration(
            declarationHandle: 0x0B, properties: CharacteristicProperties(rawValue: 0x1A), valueHandle: 0x0C,
            uuid: try #require(BluetoothUUID("6E400003-B5A3-F393-E0A9-E50E24DCCA9E")))])
        #expect(declarations.first?.properties.names == ["Read", "Write", "Notify"])
    }

    @Test func everyPropertyBitHasItsName() {
        #expect(CharacteristicProperties(rawValue: 0xFF).names == [
            "Broadcast", "Read", "WriteWithoutResponse", "Write", "Notify", "Indicate", "AuthenticatedSignedWrites",
            "ExtendedProperties",
        ])
    }

    @Test func serviceDeclarationsFromReadByGroupTypeResponse() throws {
        let response = ATTReadByGroupTypeResponse(length: 6, groups: [
            ATTGroupData(handle: 1, endGroupHandle: 7, value: [0x00, 0x18]),     // service 0x1800
            ATTGroupData(handle: 8, endGroupHandle: 0x0B, value: [0x0F, 0x18]),  // service 0x180F
        ])
        #expect(try response.serviceDeclarations() == [
            ServiceDeclaration(startHandle: 1, endHandle: 7, uuid: BluetoothUUID(uint16: 0x1800)),
            ServiceDeclaration(startHandle: 8, endHandle: 0x0B, uuid: BluetoothUUID(uint16: 0x180F)),
        ])
        let odd = ATTReadByGroupTypeResponse(length: 7, groups: [ATTGroupData(handle: 1, endGroupHandle: 7, value: [0, 0x18, 0])])
        #expect(throws: DecodeError.invalid(layer: .att, field: "service UUID", at: 0,
                                            reason: "3 bytes is neither a 16-bit nor a 128-bit UUID")) {
            try odd.serviceDeclarations()
        }
    }

    @Test func includeDeclarationsCarryA16BitUUIDOrNone() throws {
        let response = ATTReadByTypeResponse(length: 8, attributes: [
            ATTAttributeData(handle: 0x20, value: [0x30, 0x00,    // included service handle 0x0030
                                                   0x35, 0x00,    // end group handle 0x0035
                                                   0x0F, 0x18]),  // service UUID 0x180F
        ])
        #expect(try response.includeDeclarations() == [IncludeDeclaration(
            declarationHandle: 0x20, includedServiceHandle: 0x30, endGroupHandle: 0x35, uuid: BluetoothUUID(uint16: 0x180F))])
        let long = ATTReadByTypeResponse(length: 6, attributes: [ATTAttributeData(handle: 0x20, value: [0x30, 0x00, 0x35, 0x00])])
        #expect(try long.includeDeclarations().first?.uuid == nil)
    }
}
