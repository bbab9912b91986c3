import BLEBase
@testable import BLEHCI
import Testing

@Suite struct DataPacketTests {
    let acl: [UInt8] = [0x40, 0x20,             // handle 0x0040, PB 0b10 (first flushable), BC 0b00
                        0x07, 0x00,             // Data_Total_Length 7
                        0x03, 0x00, 0x04, 0x00, // L2CAP length 3, CID 0x0004
                        0x02, 0x05, 0x02]       // ATT Exchange MTU Request 517

    @Test func aclStartFragment() throws {
        let packet = try parsed(acl) { r throws(DecodeError) in try ACLDataPacket(parsing: &r) }
        #expect(packet.connectionHandle == 0x40 && packet.packetBoundary == .firstFlushable && packet.broadcastFlag == 0)
        #expect(packet.dataTotalLength == 7 && packet.payloadRange == 4..<11 && packet.truncation == nil)
        let payload = packet.payload(in: ByteReader(acl))
        #expect(Array(payload.unreadBytes) == Array(acl[4...]) && payload.reportedOffset == 4 && payload.layer == .acl)
        // Offsets stay those of the reader parsed: a record's payload after its header.
        var shifted = ByteReader([0xFF, 0xFF] + acl, range: 2..<13, baseOffset: 100)
        let inRecord = try ACLDataPacket(parsing: &shifted)
        #expect(shifted.isAtEnd && inRecord.payloadRange == 6..<13 && inRecord.payloadOffset == 106)
        #expect(Array(inRecord.payload(in: shifted).unreadBytes) == Array(acl[4...]) && inRecord.payload(in: shifted).reportedOffset == 106)
        #expect(packet.summary == "ACL handle 0x0040 start 7 bytes")
        let continuation = try parsed([0x41, 0x10, 0x01, 0x00, 0xEE]) { r throws(DecodeError) in try ACLDataPacket(parsing: &r) }
        #expect(continuation.connectionHandle == 0x41 && continuation.packetBoundary == .continuing)
        #expect(continuation.summary == "ACL handle 0x0041 continuation 1 bytes")
    }

    @Test func aclHeaderEveryTruncation() {
        expectEveryTruncation(Array(acl[0..<4]), layer: .acl, layout: [("handle and flags", 2), ("Data_Total_Length", 2)]) {
            r throws(DecodeError) in _ = try ACLDataPacket(parsing: &r)
        }
    }

    @Test func aclLengthMismatchAndReservedBoundary() {
        #expect(throws: DecodeError.truncated(layer: .acl, field: "ACL data", at: 4, needed: 7, available: 3)) {
            _ = try parsed(Array(acl[0..<7])) { r throws(DecodeError) in try ACLDataPacket(parsing: &r) }
        }
        #expect(throws: DecodeError.leftover(layer: .acl, structure: "ACL data", at: 11, count: 1)) {
            _ = try parsed(acl + [0]) { r throws(DecodeError) in try ACLDataPacket(parsing: &r, allowTruncated: true) }
        }
        #expect(throws: DecodeError.invalid(layer: .acl, field: "Packet_Boundary_Flag", at: 0,
                                            reason: "0b11 is reserved on LE (Core v5.4 Vol 4 Part E §5.4.2)")) {
            _ = try parsed([0x40, 0x30, 0x00, 0x00]) { r throws(DecodeError) in try ACLDataPacket(parsing: &r) }
        }
    }

    @Test func aclCutByCapturingToolKeepsHeader() throws {
        let packet = try parsed(Array(acl[0..<6])) { r throws(DecodeError) in try ACLDataPacket(parsing: &r, allowTruncated: true) }
        #expect(packet.truncation == DataTruncation(present: 2, declared: 7))
        #expect(packet.payloadRange == 4..<6 && Array(packet.payload(in: ByteReader(acl)).unreadBytes) == [0x03, 0x00])
        #expect(packet.summary == "ACL handle 0x0040 start 7 bytes (truncated: 2 of 7 bytes present)")
    }

    @Test func scoAndISOHeaders() throws {
        let sco = try parsed([0x01, 0x20, 0x02, 0xAA, 0xBB]) { r throws(DecodeError) in try SCODataPacket(parsing: &r) }
        #expect(sco.connectionHandle == 0x001 && sco.packetStatusFlag == 0b10 && sco.data == [0xAA, 0xBB])
        expectEveryTruncation([0x01, 0x00, 0x00], layer: .hci, layout: [("handle and flags", 2), ("Data_Total_Length", 1)]) {
            r throws(DecodeError) in _ = try SCODataPacket(parsing: &r)
        }
        let iso = try parsed([0x60, 0x60, 0x02, 0x00, 0x01, 0x02]) { r throws(DecodeError) in try ISODataPacket(parsing: &r) }
        #expect(iso.connectionHandle == 0x060 && iso.packetBoundary == 0b10 && iso.hasTimeStamp && iso.data == [1, 2])
        #expect(throws: DecodeError.truncated(layer: .hci, field: "ISO data", at: 4, needed: 2, available: 1)) {
            _ = try parsed([0x60, 0x20, 0x02, 0x00, 0x01]) { r throws(DecodeError) in try ISODataPacket(parsing: &r) }
        }
    }
}
