import BLEBase
import Testing
@testable import BLEATT

/// One annotated vector per opcode: the bytes as they travel on CID 0x0004, decoded exactly.
@Suite struct ATTPDUVectorTests {
    @Test func errorResponse() throws {
        let pdu = try decode([
            0x01,        // opcode: Error Response
            0x10,        // request opcode: Read By Group Type Request
            0x18, 0x00,  // attribute handle in error 0x0018
            0x0A,        // error code: Attribute Not Found
        ])
        let error = ATTErrorResponse(requestOpcode: .readByGroupTypeRequest, handle: 0x0018, errorCode: .attributeNotFound)
        #expect(pdu == ATTPDU(opcode: .errorResponse, parameters: .errorResponse(error)))
        #expect(error.isNormalEndOfDiscovery)
        #expect(pdu.handle == 0x0018)
        #expect(pdu.value == nil)
    }

    @Test func exchangeMTU() throws {
        #expect(try decode([
            0x02,        // opcode: Exchange MTU Request
            0x05, 0x02,  // client Rx MTU 517
        ]).parameters == .exchangeMTURequest(clientRxMTU: 517))
        #expect(try decode([
            0x03,        // opcode: Exchange MTU Response
            0xF7, 0x00,  // server Rx MTU 247
        ]).parameters == .exchangeMTUResponse(serverRxMTU: 247))
    }

    @Test func findInformation() throws {
        let request = try decode([
            0x04,        // opcode: Find Information Request
            0x01, 0x00,  // starting handle 0x0001
            0xFF, 0xFF,  // ending handle 0xFFFF
        ])
        #expect(request.parameters == .findInformationRequest(ATTHandleRange(startHandle: 1, endHandle: 0xFFFF)))
        #expect(request.handle == 1)

        let short = try decode([
            0x05,                    // opcode: Find Information Response
            0x01,                    // format: 16-bit UUIDs
            0x0E, 0x00, 0x02, 0x29,  // handle 0x000E, UUID 0x2902
            0x0F, 0x00, 0x01, 0x29,  // handle 0x000F, UUID 0x2901
        ])
        #expect(short.parameters == .findInformationResponse(ATTFindInformationResponse(format: .uuid16, attributes: [
            ATTHandleUUID(handle: 0x0E, uuid: BluetoothUUID(uint16: 0x2902)),
            ATTHandleUUID(handle: 0x0F, uuid: BluetoothUUID(uint16: 0x2901)),
        ])))

        let long = try decode([0x05,  // opcode: Find Information Response
                               0x02,  // format: 128-bit UUIDs
                               0x10, 0x00]  // handle 0x0010
                              // UUID 6E400001-B5A3-F393-E0A9-E50E24DCCA9E, least significant byte first
                              + [0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0,
                                 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E])
        #expect(long.parameters == .findInformationResponse(ATTFindInformationResponse(format: .uuid128, attributes: [
            ATTHandleUUID(handle: 0x10, uuid: try #require(BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E"))),
        ])))
    }

    @Test func findByTypeValue() throws {
        let request = try decode([
            0x06,        // opcode: Find By Type Value Request
            0x01, 0x00,  // starting handle 0x0001
            0xFF, 0xFF,  // ending handle 0xFFFF
            0x00, 0x28,  // attribute type 0x2800 (Primary Service)
            0x0F, 0x18,  // value: Battery Service UUID 0x180F
        ])
        #expect(request.parameters == .findByTypeValueRequest(ATTFindByTypeValueRequest(
            range: ATTHandleRange(startHandle: 1, endHandle: 0xFFFF), attributeType: BluetoothUUID(uint16: 0x2800),
            value: [0x0F, 0x18])))
        #expect(request.value == [0x0F, 0x18])

        #expect(try decode([
            0x07,        // opcode: Find By Type Value Response
            0x20, 0x00,  // found attribute handle 0x0020
            0x25, 0x00,  // group end handle 0x0025
        ]).parameters == .findByTypeValueResponse([ATTHandlesInformation(foundHandle: 0x20, groupEndHandle: 0x25)]))
    }

    @Test func readByType() throws {
        let request = try decode([
            0x08,        // opcode: Read By Type Request
            0x01, 0x00,  // starting handle 0x0001
            0x0B, 0x00,  // ending handle 0x000B
            0x03, 0x28,  // attribute type 0x2803 (Characteristic)
        ])
        #expect(request.parameters == .readByTypeRequest(ATTTypeRangeRequest(
            range: ATTHandleRange(startHandle: 1, endHandle: 0x0B), attributeType: BluetoothUUID(uint16: 0x2803))))

        let response = try decode([
            0x09,                                // opcode: Read By Type Response
            0x07,                                // length: 7 bytes per handle–value pair
            0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x2A,  // handle 0x0002: Read, value 0x0003, UUID 0x2A00
            0x04, 0x00, 0x12, 0x05, 0x00, 0x19, 0x2A,  // handle 0x0004: Read|Notify, value 0x0005, UUID 0x2A19
        ])
        #expect(response.parameters == .readByTypeResponse(ATTReadByTypeResponse(length: 7, attributes: [
            ATTAttributeData(handle: 2, value: [0x02, 0x03, 0x00, 0x00, 0x2A]),
            ATTAttributeData(handle: 4, value: [0x12, 0x05, 0x00, 0x19, 0x2A]),
        ])))
    }

    @Test func readAndReadBlob() throws {
        #expect(try decode([
            0x0A,        // opcode: Read Request
            0x03, 0x00,  // handle 0x0003
        ]).parameters == .readRequest(handle: 3))
        #expect(try decode([
            0x0B,                    // opcode: Read Response
            0x4C, 0x6F, 0x63, 0x6B,  // value "Lock"
        ]).parameters == .readResponse(value: [0x4C, 0x6F, 0x63, 0x6B]))
        #expect(try decode([0x0B]).parameters == .readResponse(value: []))  // empty value
        #expect(try decode([
            0x0C,        // opcode: Read Blob Request
            0x03, 0x00,  // handle 0x0003
            0x16, 0x00,  // value offset 22
        ]).parameters == .readBlobRequest(handle: 3, offset: 22))
        #expect(try decode([
            0x0D,        // opcode: Read Blob Response
            0x21, 0x22,  // part value
        ]).parameters == .readBlobResponse(partValue: [0x21, 0x22]))
    }

    @Test func readMultiple() throws {
        #expect(try decode([
            0x0E,        // opcode: Read Multiple Request
            0x03, 0x00,  // handle 0x0003
            0x05, 0x00,  // handle 0x0005
        ]).parameters == .readMultipleRequest(handles: [3, 5]))
        #expect(try decode([
            0x0F,              // opcode: Read Multiple Response
            0x64, 0x01, 0x02,  // values, concatenated
        ]).parameters == .readMultipleResponse(values: [0x64, 0x01, 0x02]))
        #expect(try decode([
            0x20,        // opcode: Read Multiple Variable Request
            0x03, 0x00,  // handle 0x0003
            0x05, 0x00,  // handle 0x0005
        ]).parameters == .readMultipleVariableRequest(handles: [3, 5]))
        #expect(try decode([
            0x21,              // opcode: Read Multiple Variable Response
            0x01, 0x00, 0x64,  // length 1, value 0x64
            0x04, 0x00, 0x01, 0x02,  // length 4, only 2 bytes fit in the MTU
        ]).parameters == .readMultipleVariableResponse([
            ATTLengthValue(length: 1, value: [0x64]), ATTLengthValue(length: 4, value: [0x01, 0x02]),
        ]))
    }

    @Test func readByGroupType() throws {
        #expect(try decode([
            0x10,        // opcode: Read By Group Type Request
            0x01, 0x00,  // starting handle 0x0001
            0xFF, 0xFF,  // ending handle 0xFFFF
            0x00, 0x28,  // attribute group type 0x2800 (Primary Service)
        ]).parameters == .readByGroupTypeRequest(ATTTypeRangeRequest(
            range: ATTHandleRange(startHandle: 1, endHandle: 0xFFFF), attributeType: BluetoothUUID(uint16: 0x2800))))
        #expect(try decode([
            0x11,                                // opcode: Read By Group Type Response
            0x06,                                // length: 6 bytes per entry
            0x01, 0x00, 0x07, 0x00, 0x00, 0x18,  // 0x0001–0x0007: service 0x1800
            0x08, 0x00, 0x0B, 0x00, 0x0F, 0x18,  // 0x0008–0x000B: service 0x180F
        ]).parameters == .readByGroupTypeResponse(ATTReadByGroupTypeResponse(length: 6, groups: [
            ATTGroupData(handle: 1, endGroupHandle: 7, value: [0x00, 0x18]),
            ATTGroupData(handle: 8, endGroupHandle: 0x0B, value: [0x0F, 0x18]),
        ])))
    }

    @Test func writes() throws {
        let write = try decode([
            0x12,                                      // opcode: Write Request
            0x10, 0x00,                                // handle 0x0010
            0xAA, 0x01, 0x59, 0x00, 0x00, 0xF4, 0x55,  // value
        ])
        #expect(write.parameters == .writeRequest(ATTHandleValue(handle: 0x10, value: [0xAA, 0x01, 0x59, 0x00, 0x00, 0xF4, 0x55])))
        #expect(write.handle == 0x10)
        #expect(write.value == [0xAA, 0x01, 0x59, 0x00, 0x00, 0xF4, 0x55])
        #expect(try decode([0x13]).parameters == .writeResponse)  // opcode: Write Response
        #expect(try decode([
            0x52,        // opcode: Write Command
            0x10, 0x00,  // handle 0x0010
            0x01,        // value
        ]).parameters == .writeCommand(ATTHandleValue(handle: 0x10, value: [0x01])))
        let signed = try decode([0xD2,        // opcode: Signed Write Command
                                 0x10, 0x00,  // handle 0x0010
                                 0x01, 0x02]  // value
                                + [0x05, 0x00, 0x00, 0x00]  // sign counter 5
                                + [1, 2, 3, 4, 5, 6, 7, 8])  // MAC
        #expect(signed.parameters == .signedWriteCommand(ATTSignedWrite(
            handle: 0x10, value: [0x01, 0x02], signature: [0x05, 0x00, 0x00, 0x00, 1, 2, 3, 4, 5, 6, 7, 8])))
        #expect(signed.value == [0x01, 0x02])
    }

    @Test func queuedWrites() throws {
        #expect(try decode([
            0x16,        // opcode: Prepare Write Request
            0x10, 0x00,  // handle 0x0010
            0x12, 0x00,  // value offset 18
            0xAB, 0xCD,  // part value
        ]).parameters == .prepareWriteRequest(ATTPrepareWrite(handle: 0x10, offset: 18, value: [0xAB, 0xCD])))
        #expect(try decode([
            0x17,        // opcode: Prepare Write Response
            0x10, 0x00,  // handle 0x0010
            0x12, 0x00,  // value offset 18
            0xAB, 0xCD,  // part value echoed
        ]).parameters == .prepareWriteResponse(ATTPrepareWrite(handle: 0x10, offset: 18, value: [0xAB, 0xCD])))
        #expect(try decode([
            0x18,  // opcode: Execute Write Request
            0x01,  // flags: write
        ]).parameters == .executeWriteRequest(flags: .write))
        #expect(try decode([0x19]).parameters == .executeWriteResponse)  // opcode: Execute Write Response
    }

    @Test func serverInitiated() throws {
        #expect(try decode([
            0x1B,        // opcode: Handle Value Notification
            0x12, 0x00,  // handle 0x0012
            0x64,        // value
        ]).parameters == .handleValueNotification(ATTHandleValue(handle: 0x12, value: [0x64])))
        #expect(try decode([
            0x1D,        // opcode: Handle Value Indication
            0x03, 0x00,  // handle 0x0003
            0x01, 0x00, 0xFF, 0xFF,  // value (Service Changed range)
        ]).parameters == .handleValueIndication(ATTHandleValue(handle: 3, value: [0x01, 0x00, 0xFF, 0xFF])))
        #expect(try decode([0x1E]).parameters == .handleValueConfirmation)  // opcode: Handle Value Confirmation
        #expect(try decode([
            0x23,                    // opcode: Multiple Handle Value Notification
            0x12, 0x00, 0x01, 0x00,  // handle 0x0012, length 1
            0x64,                    // value
            0x15, 0x00, 0x02, 0x00,  // handle 0x0015, length 2
            0x01, 0x02,              // value
        ]).parameters == .multipleHandleValueNotification([
            ATTHandleLengthValue(handle: 0x12, value: [0x64]), ATTHandleLengthValue(handle: 0x15, value: [0x01, 0x02]),
        ]))
    }

    @Test func unknownOpcodeKeepsItsParameters() throws {
        let pdu = try decode([
            0x5F,              // opcode: not defined
            0x01, 0x02, 0x03,  // parameters
        ])
        #expect(pdu == ATTPDU(opcode: ATTOpcode(rawValue: 0x5F), parameters: .unknown(rawParameters: [1, 2, 3])))
        #expect(pdu.summary == "Unknown (0x5F) 3 bytes")
    }
}
