import BLEBase
import Testing
@testable import BLEATT

@Suite struct ATTMalformedTests {
    /// A whole PDU of each opcode with a size floor; every shorter prefix must fail with the
    /// opcode's own size error.
    static let wholePDUs: [[UInt8]] = [
        [0x01, 0x10, 0x18, 0x00, 0x0A],              // Error Response (4)
        [0x02, 0x05, 0x02],                          // Exchange MTU Request (2)
        [0x03, 0xF7, 0x00],                          // Exchange MTU Response (2)
        [0x04, 0x01, 0x00, 0xFF, 0xFF],              // Find Information Request (4)
        [0x05, 0x01, 0x0E, 0x00, 0x02, 0x29],        // Find Information Response (≥5)
        [0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28],  // Find By Type Value Request (≥6)
        [0x07, 0x20, 0x00, 0x25, 0x00],              // Find By Type Value Response (≥4)
        [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28],  // Read By Type Request (≥6)
        [0x09, 0x02, 0x03, 0x00],                    // Read By Type Response (≥3)
        [0x0A, 0x03, 0x00],                          // Read Request (2)
        [0x0C, 0x03, 0x00, 0x16, 0x00],              // Read Blob Request (4)
        [0x0E, 0x03, 0x00, 0x05, 0x00],              // Read Multiple Request (≥4)
        [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28],  // Read By Group Type Request (≥6)
        [0x11, 0x04, 0x01, 0x00, 0x07, 0x00],        // Read By Group Type Response (≥5)
        [0x12, 0x10, 0x00],                          // Write Request (≥2)
        [0x16, 0x10, 0x00, 0x00, 0x00],              // Prepare Write Request (≥4)
        [0x17, 0x10, 0x00, 0x00, 0x00],              // Prepare Write Response (≥4)
        [0x18, 0x00],                                // Execute Write Request (1)
        [0x1B, 0x12, 0x00],                          // Handle Value Notification (≥2)
        [0x1D, 0x12, 0x00],                          // Handle Value Indication (≥2)
        [0x20, 0x03, 0x00, 0x05, 0x00],              // Read Multiple Variable Request (≥4)
        [0x21, 0x00, 0x00],                          // Read Multiple Variable Response (≥2)
        [0x23, 0x12, 0x00, 0x00, 0x00],              // Multiple Handle Value Notification (≥4)
        [0x52, 0x10, 0x00],                          // Write Command (≥2)
        [0xD2, 0x10, 0x00] + [UInt8](repeating: 0, count: 12),  // Signed Write Command (≥14)
    ]

    @Test(arguments: wholePDUs)
    func everyTruncationGivesTheSizeError(whole: [UInt8]) throws {
        _ = try decode(whole)
        let opcode = ATTOpcode(rawValue: whole.first ?? 0)
        #expect(throws: DecodeError.truncated(layer: .att, field: "ATT opcode", at: 0, needed: 1, available: 0)) {
            try decode([])
        }
        for length in 1..<whole.count {
            #expect(throws: DecodeError.truncated(layer: .att, field: "\(opcode.name) parameters", at: 1,
                                                  needed: whole.count - 1, available: length - 1)) {
                try decode(Array(whole.prefix(length)))
            }
        }
    }

    @Test(arguments: [[0x01, 0x10, 0x18, 0x00, 0x0A], [0x02, 0x05, 0x02], [0x0A, 0x03, 0x00], [0x13], [0x18, 0x01],
                      [0x19], [0x1E]] as [[UInt8]])
    func fixedSizePDUsRejectExtraBytes(whole: [UInt8]) {
        #expect(throws: DecodeError.leftover(layer: .att, structure: ATTOpcode(rawValue: whole.first ?? 0).name,
                                             at: whole.count, count: 1)) {
            try decode(whole + [0xEE])
        }
    }

    @Test func peekOpcodeNamesAMalformedPDU() {
        let bytes: [UInt8] = [0x01, 0x10]  // Error Response cut after the request opcode
        #expect(throws: DecodeError.self) { try decode(bytes) }
        #expect(ATTPDU.peekOpcode(ByteReader(bytes, layer: .att)) == .errorResponse)
        #expect(ATTPDU.peekOpcode(ByteReader([], layer: .att)) == nil)
    }

    @Test func readByTypeResponseLengthBelowTwoIsInvalid() {
        #expect(throws: DecodeError.invalid(layer: .att, field: "length", at: 1,
                                            reason: "entry length 1 is below the 2-byte minimum")) {
            try decode([0x09,        // opcode: Read By Type Response
                        0x01,        // length 1: cannot hold a handle
                        0x02, 0x00])
        }
    }

    @Test func readByTypeResponseLengthMustDivideTheData() {
        #expect(throws: DecodeError.invalid(layer: .att, field: "attribute data list", at: 2,
                                            reason: "7 bytes is not a whole number of 4-byte entries")) {
            try decode([0x09,                    // opcode: Read By Type Response
                        0x04,                    // length 4
                        0x02, 0x00, 0xAA, 0xBB,  // one whole pair
                        0x03, 0x00, 0xCC])       // and three bytes
        }
    }

    @Test func readByGroupTypeResponseLengthBelowFourIsInvalid() {
        #expect(throws: DecodeError.invalid(layer: .att, field: "length", at: 1,
                                            reason: "entry length 3 is below the 4-byte minimum")) {
            try decode([0x11, 0x03, 0x01, 0x00, 0x07, 0x00])
        }
    }

    @Test func findInformationResponseFormatMustBeOneOrTwo() {
        #expect(throws: DecodeError.invalid(layer: .att, field: "format", at: 1,
                                            reason: "format 0x03 is neither 0x01 (16-bit) nor 0x02 (128-bit)")) {
            try decode([0x05, 0x03, 0x0E, 0x00, 0x02, 0x29])
        }
        #expect(throws: DecodeError.invalid(layer: .att, field: "information data", at: 2,
                                            reason: "4 bytes is not a whole number of 18-byte entries")) {
            try decode([0x05, 0x02, 0x0E, 0x00, 0x02, 0x29])
        }
    }

    @Test func typeRequestsTakeOnlySixteenOrOneHundredTwentyEightBitUUIDs() {
        #expect(throws: DecodeError.invalid(layer: .att, field: "attribute type", at: 5,
                                            reason: "4 bytes is neither a 16-bit nor a 128-bit UUID")) {
            try decode([0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28, 0x00, 0x00])
        }
    }

    @Test func listsWithPartialEntriesAreInvalid() {
        #expect(throws: DecodeError.invalid(layer: .att, field: "set of handles", at: 1,
                                            reason: "5 bytes is not a whole number of u16 handles")) {
            try decode([0x0E, 0x03, 0x00, 0x05, 0x00, 0x07])
        }
        #expect(throws: DecodeError.invalid(layer: .att, field: "handles information list", at: 1,
                                            reason: "6 bytes is not a whole number of 4-byte entries")) {
            try decode([0x07, 0x20, 0x00, 0x25, 0x00, 0x30, 0x00])
        }
        // Multiple Handle Value Notification: the second tuple claims 2 bytes and carries 1.
        #expect(throws: DecodeError.truncated(layer: .att, field: "attribute value", at: 10, needed: 2, available: 1)) {
            try decode([0x23, 0x12, 0x00, 0x01, 0x00, 0x64, 0x15, 0x00, 0x02, 0x00, 0x01])
        }
    }
}
