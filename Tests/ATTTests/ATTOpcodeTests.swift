import BLEBase
import Testing
@testable import BLEATT

@Suite struct ATTOpcodeTests {
    @Test func namesKindsAndPairingFollowTheOpcodeTable() {
        // (opcode, name, kind, expected response, request answered)
        let table: [(UInt8, String, ATTPDUKind, UInt8?, UInt8?)] = [
            (0x01, "Error Response", .response, nil, nil),
            (0x02, "Exchange MTU Request", .request, 0x03, nil),
            (0x03, "Exchange MTU Response", .response, nil, 0x02),
            (0x04, "Find Information Request", .request, 0x05, nil),
            (0x05, "Find Information Response", .response, nil, 0x04),
            (0x06, "Find By Type Value Request", .request, 0x07, nil),
            (0x07, "Find By Type Value Response", .response, nil, 0x06),
            (0x08, "Read By Type Request", .request, 0x09, nil),
            (0x09, "Read By Type Response", .response, nil, 0x08),
            (0x0A, "Read Request", .request, 0x0B, nil),
            (0x0B, "Read Response", .response, nil, 0x0A),
            (0x0C, "Read Blob Request", .request, 0x0D, nil),
            (0x0D, "Read Blob Response", .response, nil, 0x0C),
            (0x0E, "Read Multiple Request", .request, 0x0F, nil),
            (0x0F, "Read Multiple Response", .response, nil, 0x0E),
            (0x10, "Read By Group Type Request", .request, 0x11, nil),
            (0x11, "Read By Group Type Response", .response, nil, 0x10),
            (0x12, "Write Request", .request, 0x13, nil),
            (0x13, "Write Response", .response, nil, 0x12),
            (0x16, "Prepare Write Request", .request, 0x17, nil),
            (0x17, "Prepare Write Response", .response, nil, 0x16),
            (0x18, "Execute Write Request", .request, 0x19, nil),
            (0x19, "Execute Write Response", .response, nil, 0x18),
            (0x1B, "Handle Value Notification", .notification, nil, nil),
            (0x1D, "Handle Value Indication", .indication, 0x1E, nil),
            (0x1E, "Handle Value Confirmation", .confirmation, nil, 0x1D),
            (0x20, "Read Multiple Variable Request", .request, 0x21, nil),
            (0x21, "Read Multiple Variable Response", .response, nil, 0x20),
            (0x23, "Multiple Handle Value Notification", .notification, nil, nil),
            (0x52, "Write Command", .command, nil, nil),
            (0xD2, "Signed Write Command", .command, nil, nil),
        ]
        for (raw, name, kind, response, request) in table {
            let opcode = ATTOpcode(rawValue: raw)
            #expect(opcode.name == name)
            #expect(opcode.isKnown)
            #expect(opcode.kind == kind, "\(name)")
            #expect(opcode.expectedResponse?.rawValue == response, "\(name)")
            #expect(opcode.requestOpcode?.rawValue == request, "\(name)")
        }
    }

    @Test func bitAccessorsSplitTheOpcode() {
        #expect(ATTOpcode.writeCommand.isCommand)
        #expect(!ATTOpcode.writeCommand.hasAuthenticationSignature)
        #expect(ATTOpcode.writeCommand.method == 0x12)
        #expect(ATTOpcode.signedWriteCommand.isCommand)
        #expect(ATTOpcode.signedWriteCommand.hasAuthenticationSignature)
        #expect(ATTOpcode.signedWriteCommand.method == 0x12)
        #expect(!ATTOpcode.writeRequest.isCommand)
        #expect(!ATTOpcode.writeRequest.hasAuthenticationSignature)
    }

    @Test func unknownOpcodesPrintTheirValue() {
        let opcode = ATTOpcode(rawValue: 0x5F)
        #expect(opcode.name == "Unknown (0x5F)")
        #expect(!opcode.isKnown)
        #expect(opcode.kind == .command)  // bit 6 set
        #expect(ATTOpcode(rawValue: 0x14).kind == nil)
        #expect(ATTOpcode(rawValue: 0x14).expectedResponse == nil)
    }

    @Test func errorCodeNames() {
        let named: [UInt8: String] = [
            0x01: "Invalid Handle", 0x02: "Read Not Permitted", 0x03: "Write Not Permitted", 0x04: "Invalid PDU",
            0x05: "Insufficient Authentication", 0x06: "Request Not Supported", 0x07: "Invalid Offset",
            0x08: "Insufficient Authorization", 0x09: "Prepare Queue Full", 0x0A: "Attribute Not Found",
            0x0B: "Attribute Not Long", 0x0C: "Insufficient Encryption Key Size",
            0x0D: "Invalid Attribute Value Length", 0x0E: "Unlikely Error", 0x0F: "Insufficient Encryption",
            0x10: "Unsupported Group Type", 0x11: "Insufficient Resources", 0x12: "Database Out Of Sync",
            0x13: "Value Not Allowed", 0x80: "Application Error 0x80", 0x9F: "Application Error 0x9F",
            0xFC: "Write Request Rejected",
            0xFD: "Client Characteristic Configuration Descriptor Improperly Configured",
            0xFE: "Procedure Already in Progress", 0xFF: "Out of Range",
            0x00: "Unknown (0x00)", 0x14: "Unknown (0x14)", 0xA0: "Unknown (0xA0)", 0xE0: "Unknown (0xE0)",
        ]
        for (raw, name) in named {
            #expect(ATTErrorCode(rawValue: raw).name == name)
        }
        #expect(ATTErrorCode(rawValue: 0x85).isApplicationError)
        #expect(!ATTErrorCode(rawValue: 0xA0).isApplicationError)
    }

    @Test func attributeNotFoundEndsDiscoveryOnlyForDiscoveryRequests() {
        for request in [ATTOpcode.readByGroupTypeRequest, .readByTypeRequest, .findInformationRequest,
                        .findByTypeValueRequest] {
            #expect(ATTErrorCode.isNormalEndOfDiscovery(errorCode: .attributeNotFound, requestOpcode: request))
            #expect(!ATTErrorCode.isNormalEndOfDiscovery(errorCode: .invalidHandle, requestOpcode: request))
        }
        #expect(!ATTErrorCode.isNormalEndOfDiscovery(errorCode: .attributeNotFound, requestOpcode: .readRequest))
        #expect(!ATTErrorCode.isNormalEndOfDiscovery(errorCode: .attributeNotFound, requestOpcode: .writeRequest))
    }
}
