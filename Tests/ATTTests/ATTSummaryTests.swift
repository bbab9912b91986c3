import BLEBase
import Testing
@testable import BLEATT

@Suite struct ATTSummaryTests {
    @Test(arguments: [
        ([0x12, 0x10, 0x00, 0xAA, 0x01, 0x59, 0x00, 0x00, 0xF4, 0x55], "Write Request handle 0x0010 value aa01590000f455"),
        ([0x01, 0x10, 0x18, 0x00, 0x0A],
         "Error Response to Read By Group Type Request handle 0x0018: Attribute Not Found (0x0A)"),
        ([0x02, 0x05, 0x02], "Exchange MTU Request client Rx MTU 517"),
        ([0x03, 0xF7, 0x00], "Exchange MTU Response server Rx MTU 247"),
        ([0x09, 0x04, 0x02, 0x00, 0xAA, 0xBB, 0x03, 0x00, 0xCC, 0xDD], "Read By Type Response 2 attributes"),
        ([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28], "Read By Group Type Request handles 0x0001–0xFFFF type 2800"),
        ([0x11, 0x06, 0x01, 0x00, 0x07, 0x00, 0x00, 0x18], "Read By Group Type Response 1 group"),
        ([0x0C, 0x03, 0x00, 0x16, 0x00], "Read Blob Request handle 0x0003 offset 22"),
        ([0x0E, 0x03, 0x00, 0x05, 0x00], "Read Multiple Request handles 0x0003,0x0005"),
        ([0x13], "Write Response"),
        ([0x18, 0x00], "Execute Write Request Cancel all prepared writes"),
        ([0x52, 0x10, 0x00], "Write Command handle 0x0010 value (empty)"),
        ([0x1E], "Handle Value Confirmation"),
    ] as [([UInt8], String)])
    func summaries(bytes: [UInt8], expected: String) throws {
        #expect(try decode(bytes).summary == expected)
    }

    @Test func longValuesAreElidedAfterThirtyTwoBytes() throws {
        let value = [0xAA, 0x81] + [UInt8](repeating: 0x11, count: 31)  // 33 bytes
        let pdu = try decode([0x1B, 0x12, 0x00] + value)
        #expect(pdu.summary == "Handle Value Notification handle 0x0012 value aa81" + String(repeating: "11", count: 30) + "…")
    }

    @Test func errorResponseFields() throws {
        let pdu = try decode([0x01, 0x10, 0x18, 0x00, 0x0A])
        #expect(pdu.fields == [
            Field("opcode", .int(1), display: "Error Response (0x01)"),
            Field("opcodeName", .string("Error Response")),
            Field("requestOpcode", .int(0x10), display: "Read By Group Type Request (0x10)"),
            Field("handle", .int(0x18), display: "0x0018"),
            Field("errorCode", .int(0x0A), display: "Attribute Not Found (0x0A)"),
            Field("errorName", .string("Attribute Not Found")),
        ])
    }

    @Test func listFieldsAreArraysOfObjects() throws {
        let pdu = try decode([0x11, 0x06, 0x01, 0x00, 0x07, 0x00, 0x00, 0x18])
        #expect(pdu.fields.dropFirst(2).elementsEqual([
            Field("length", .int(6)),
            Field("groups", .list([.object([
                Field("startHandle", .int(1), display: "0x0001"),
                Field("endHandle", .int(7), display: "0x0007"),
                Field("value", .bytes([0x00, 0x18])),
            ])])),
        ]))
    }

    @Test func rangeRequestFieldsNameTheUUID() throws {
        let pdu = try decode([0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28])
        #expect(Array(pdu.fields.dropFirst(2)) == [
            Field("startHandle", .int(1), display: "0x0001"),
            Field("endHandle", .int(0xFFFF), display: "0xFFFF"),
            Field("uuid", .uuid(BluetoothUUID(uint16: 0x2803))),
        ])
    }

    @Test func mtuFieldIsAnInteger() throws {
        #expect(Array(try decode([0x02, 0x05, 0x02]).fields.dropFirst(2)) == [Field("mtu", .int(517))])
    }
}
