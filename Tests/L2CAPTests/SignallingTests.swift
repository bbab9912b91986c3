import BLEBase
import Testing
@testable import BLEL2CAP

func parseSignalling(_ bytes: [UInt8]) throws(DecodeError) -> SignallingPDU {
    var reader = ByteReader(bytes, layer: .signalling)
    return try SignallingPDU(parsing: &reader)
}

func parseCommand(_ bytes: [UInt8]) throws(DecodeError) -> SignallingCommand {
    var reader = ByteReader(bytes, layer: .signalling)
    return try SignallingCommand(parsing: &reader)
}

@Suite struct SignallingTests {
    @Test func connectionParameterUpdateRequest() throws {
        let command = try parseCommand([
            0x12,        // code: Connection Parameter Update Request
            0x01,        // identifier
            0x08, 0x00,  // length 8
            0x06, 0x00,  // interval min 6 × 1.25 ms
            0x0C, 0x00,  // interval max 12 × 1.25 ms
            0x00, 0x00,  // latency 0
            0x90, 0x01,  // timeout 400 × 10 ms
        ])
        #expect(command == SignallingCommand(code: .connectionParameterUpdateRequest, identifier: 1, parameters:
            .connectionParameterUpdateRequest(ConnectionParameterUpdateRequest(
                intervalMin: 6, intervalMax: 12, latency: 0, timeoutMultiplier: 400))))
        #expect(command.summary
                == "L2CAP Connection Parameter Update Request interval 7.50–15.00 ms latency 0 timeout 4000 ms")
    }

    @Test func connectionParameterUpdateResponse() throws {
        let command = try parseCommand([
            0x13,        // code: Connection Parameter Update Response
            0x01,        // identifier
            0x02, 0x00,  // length 2
            0x01, 0x00,  // result: rejected
        ])
        #expect(command.parameters == .connectionParameterUpdateResponse(result: .rejected))
        #expect(command.summary == "L2CAP Connection Parameter Update Response result Rejected")
    }

    @Test func commandReject() throws {
        let command = try parseCommand([
            0x01,        // code: Command Reject
            0x07,        // identifier
            0x04, 0x00,  // length 4
            0x01, 0x00,  // reason: signalling MTU exceeded
            0x17, 0x00,  // data: actual MTU 23
        ])
        #expect(command.parameters == .commandReject(reason: .signallingMTUExceeded, data: [0x17, 0x00]))
        #expect(command.summary == "L2CAP Command Reject reason Signalling MTU exceeded")
    }

    @Test func disconnection() throws {
        #expect(try parseCommand([
            0x06,        // code: Disconnection Request
            0x02,        // identifier
            0x04, 0x00,  // length 4
            0x40, 0x00,  // destination CID 0x0040
            0x41, 0x00,  // source CID 0x0041
        ]).parameters == .disconnectionRequest(ChannelPair(destinationCID: ChannelID(rawValue: 0x40),
                                                           sourceCID: ChannelID(rawValue: 0x41))))
        #expect(try parseCommand([
            0x07,        // code: Disconnection Response
            0x02,        // identifier
            0x04, 0x00,  // length 4
            0x40, 0x00,  // destination CID 0x0040
            0x41, 0x00,  // source CID 0x0041
        ]).summary == "L2CAP Disconnection Response dcid 0x0040 scid 0x0041")
    }

    @Test func leCreditBasedConnection() throws {
        #expect(try parseCommand([
            0x14,        // code: LE Credit Based Connection Request
            0x03,        // identifier
            0x0A, 0x00,  // length 10
            0x80, 0x00,  // SPSM 0x0080
            0x40, 0x00,  // source CID 0x0040
            0x00, 0x02,  // MTU 512
            0xF7, 0x00,  // MPS 247
            0x0A, 0x00,  // initial credits 10
        ]).parameters == .leCreditBasedConnectionRequest(LECreditBasedConnectionRequest(
            spsm: 0x80, sourceCID: ChannelID(rawValue: 0x40), mtu: 512, mps: 247, initialCredits: 10)))
        let response = try parseCommand([
            0x15,        // code: LE Credit Based Connection Response
            0x03,        // identifier
            0x0A, 0x00,  // length 10
            0x00, 0x00,  // destination CID 0x0000
            0x00, 0x00,  // MTU 0
            0x00, 0x00,  // MPS 0
            0x00, 0x00,  // initial credits 0
            0x02, 0x00,  // result: SPSM not supported
        ])
        #expect(response.parameters == .leCreditBasedConnectionResponse(LECreditBasedConnectionResponse(
            destinationCID: .null, mtu: 0, mps: 0, initialCredits: 0, result: .spsmNotSupported)))
        #expect(response.summary.hasSuffix("result Refused: SPSM not supported"))
    }

    @Test func flowControlCreditIndication() throws {
        #expect(try parseCommand([
            0x16,        // code: Flow Control Credit Indication
            0x04,        // identifier
            0x04, 0x00,  // length 4
            0x40, 0x00,  // CID 0x0040
            0x05, 0x00,  // credits 5
        ]).parameters == .flowControlCreditIndication(channelID: ChannelID(rawValue: 0x40), credits: 5))
    }

    @Test func creditBasedConnectionAndReconfigure() throws {
        #expect(try parseCommand([
            0x17,        // code: Credit Based Connection Request
            0x05,        // identifier
            0x0C, 0x00,  // length 12
            0x27, 0x00,  // SPSM 0x0027 (EATT)
            0x40, 0x00,  // MTU 64
            0x40, 0x00,  // MPS 64
            0x05, 0x00,  // initial credits 5
            0x40, 0x00,  // source CID 0x0040
            0x41, 0x00,  // source CID 0x0041
        ]).parameters == .creditBasedConnectionRequest(CreditBasedConnectionRequest(
            spsm: 0x27, mtu: 64, mps: 64, initialCredits: 5,
            sourceCIDs: [ChannelID(rawValue: 0x40), ChannelID(rawValue: 0x41)])))
        #expect(try parseCommand([
            0x18,        // code: Credit Based Connection Response
            0x05,        // identifier
            0x0C, 0x00,  // length 12
            0x40, 0x00,  // MTU 64
            0x40, 0x00,  // MPS 64
            0x05, 0x00,  // initial credits 5
            0x00, 0x00,  // result: successful
            0x50, 0x00,  // destination CID 0x0050
            0x51, 0x00,  // destination CID 0x0051
        ]).parameters == .creditBasedConnectionResponse(CreditBasedConnectionResponse(
            mtu: 64, mps: 64, initialCredits: 5, result: .successful,
            destinationCIDs: [ChannelID(rawValue: 0x50), ChannelID(rawValue: 0x51)])))
        #expect(try parseCommand([
            0x19,        // code: Credit Based Reconfigure Request
            0x06,        // identifier
            0x06, 0x00,  // length 6
            0x00, 0x01,  // MTU 256
            0x40, 0x00,  // MPS 64
            0x50, 0x00,  // destination CID 0x0050
        ]).parameters == .creditBasedReconfigureRequest(CreditBasedReconfigureRequest(
            mtu: 256, mps: 64, destinationCIDs: [ChannelID(rawValue: 0x50)])))
        #expect(try parseCommand([
            0x1A,        // code: Credit Based Reconfigure Response
            0x06,        // identifier
            0x02, 0x00,  // length 2
            0x00, 0x00,  // result: successful
        ]).parameters == .creditBasedReconfigureResponse(result: .successful))
    }

    @Test func sixChannelsAreTooMany() {
        #expect(throws: DecodeError.invalid(layer: .signalling, field: "destination CID list", at: 8,
                                            reason: "12 bytes is not a list of 0...5 u16 CIDs")) {
            try parseCommand([0x19, 0x06, 0x10, 0x00, 0x00, 0x01, 0x40, 0x00] + [UInt8](repeating: 0x50, count: 12))
        }
    }

    @Test func brEdrAndUnknownCodesKeepTheirData() throws {
        let echo = try parseCommand([
            0x08,              // code: Echo Request
            0x09,              // identifier
            0x03, 0x00,        // length 3
            0x01, 0x02, 0x03,  // data
        ])
        #expect(echo.parameters == .raw([1, 2, 3]))
        #expect(echo.summary == "L2CAP Echo Request 3 bytes")
        let unknown = try parseCommand([0x30, 0x01, 0x00, 0x00])
        #expect(unknown.code.name == "Unknown (0x30)")
        #expect(unknown.summary == "L2CAP Unknown (0x30)")
    }

    @Test func everyCommandOfAPDUIsParsed() throws {
        let pdu = try parseSignalling([
            0x13, 0x01, 0x02, 0x00, 0x00, 0x00,              // Connection Parameter Update Response: accepted
            0x16, 0x02, 0x04, 0x00, 0x40, 0x00, 0x01, 0x00,  // Flow Control Credit Indication: 0x0040 +1
        ])
        #expect(pdu.commands.map(\.code) == [.connectionParameterUpdateResponse, .flowControlCreditIndication])
        #expect(pdu.summary == "L2CAP Connection Parameter Update Response result Accepted; "
                + "L2CAP Flow Control Credit Indication cid 0x0040 credits 1")
    }

    static let fixedCommands: [[UInt8]] = [
        [0x06, 0x02, 0x04, 0x00, 0x40, 0x00, 0x41, 0x00],
        [0x07, 0x02, 0x04, 0x00, 0x40, 0x00, 0x41, 0x00],
        [0x12, 0x01, 0x08, 0x00, 0x06, 0x00, 0x0C, 0x00, 0x00, 0x00, 0x90, 0x01],
        [0x13, 0x01, 0x02, 0x00, 0x00, 0x00],
        [0x14, 0x03, 0x0A, 0x00, 0x80, 0x00, 0x40, 0x00, 0x00, 0x02, 0xF7, 0x00, 0x0A, 0x00],
        [0x15, 0x03, 0x0A, 0x00, 0x40, 0x00, 0x00, 0x02, 0xF7, 0x00, 0x0A, 0x00, 0x00, 0x00],
        [0x16, 0x04, 0x04, 0x00, 0x40, 0x00, 0x05, 0x00],
        [0x1A, 0x06, 0x02, 0x00, 0x00, 0x00],
    ]

    /// Cutting the buffer: the header fields fail in turn, then the data slice the length names.
    @Test(arguments: fixedCommands)
    func everyTruncationGivesTheExactError(whole: [UInt8]) throws {
        _ = try parseCommand(whole)
        for length in 0..<whole.count {
            let expected: DecodeError
            switch length {
            case 0: expected = .truncated(layer: .signalling, field: "signalling code", at: 0, needed: 1, available: 0)
            case 1: expected = .truncated(layer: .signalling, field: "signalling identifier", at: 1, needed: 1, available: 0)
            case 2, 3:
                expected = .truncated(layer: .signalling, field: "signalling length", at: 2, needed: 2, available: length - 2)
            default:
                expected = .truncated(layer: .signalling, field: "signalling data", at: 4, needed: whole.count - 4,
                                      available: length - 4)
            }
            #expect(throws: expected) { try parseCommand(Array(whole.prefix(length))) }
        }
    }

    /// A length field shorter than the command's fixed data: the size rule names the command.
    @Test(arguments: fixedCommands)
    func shortLengthFieldsGiveTheSizeError(whole: [UInt8]) throws {
        let code = SignallingCode(rawValue: whole.first ?? 0)
        let size = whole.count - 4
        for dataLength in 0..<size {
            let bytes = Array(whole.prefix(2)) + [UInt8(dataLength), 0x00] + Array(whole.dropFirst(4).prefix(dataLength))
            #expect(throws: DecodeError.truncated(layer: .signalling, field: "\(code.name) parameters", at: 4,
                                                  needed: size, available: dataLength)) {
                try parseCommand(bytes)
            }
        }
        let long = Array(whole.prefix(2)) + [UInt8(size + 1), 0x00] + Array(whole.dropFirst(4)) + [0xEE]
        #expect(throws: DecodeError.leftover(layer: .signalling, structure: code.name, at: whole.count, count: 1)) {
            try parseCommand(long)
        }
    }

    @Test func fieldsDescribeTheCommand() throws {
        let command = try parseCommand([0x16, 0x04, 0x04, 0x00, 0x40, 0x00, 0x05, 0x00])
        #expect(command.fields == [
            Field("code", .int(0x16), display: "Flow Control Credit Indication (0x16)"),
            Field("codeName", .string("Flow Control Credit Indication")),
            Field("identifier", .int(4)),
            Field("cid", .int(0x40), display: "0x0040"),
            Field("credits", .int(5)),
        ])
    }
}
