import BLEAssignedNumbers
import BLEBase
@testable import BLEHCI
import Testing

@Suite struct EventPacketTests {
    func event(_ bytes: [UInt8]) throws -> HCIEventPacket {
        try parsed(bytes) { r throws(DecodeError) in try HCIEventPacket(parsing: &r) }
    }

    @Test func headerEveryTruncation() {
        expectEveryTruncation([0x0E, 0x00], layer: .hci, layout: [("event code", 1), ("parameter total length", 1)]) {
            r throws(DecodeError) in _ = try HCIEventPacket(parsing: &r)
        }
        #expect(throws: DecodeError.truncated(layer: .hci, field: "event parameters", at: 2, needed: 4, available: 3)) {
            _ = try event([0x05, 0x04, 0x00, 0x40, 0x00])
        }
    }

    @Test func commandCompleteWithFailureStatus() throws {
        // Frame 14 of demo-faults.btsnoop.
        let e = try event([0x0E, 0x04, // Command Complete, 4 bytes
                           0x01,       // Num_HCI_Command_Packets
                           0x0B, 0x20, // Command_Opcode LE Set Scan Parameters
                           0x12])      // Status: Invalid HCI Command Parameters
        guard case .commandComplete(let c) = e.body else { Issue.record("not typed"); return }
        #expect(c.numHCICommandPackets == 1 && c.commandOpcode == .leSetScanParameters && c.returnParameters == [0x12])
        #expect(c.status == .invalidCommandParameters)
        #expect(e.summary == "Command Complete (LE Set Scan Parameters) status Invalid HCI Command Parameters (0x12)")
        expectEveryTruncation([0x01, 0x0B, 0x20], layer: .hci, layout: [("Num_HCI_Command_Packets", 1), ("Command_Opcode", 2)]) {
            r throws(DecodeError) in _ = try CommandCompleteEvent(parsing: &r)
        }
    }

    @Test func commandCompleteReturnParametersAndNOP() throws {
        // Frame 6: Read BD_ADDR → status 0, BD_ADDR 00:1A:7D:DA:44:20.
        let e = try event([0x0E, 0x0A, 0x01, 0x09, 0x10, 0x00, 0x20, 0x44, 0xDA, 0x7D, 0x1A, 0x00])
        guard case .commandComplete(let c) = e.body else { Issue.record("not typed"); return }
        #expect(c.status == .success && c.returnParameters.count == 7)
        #expect(e.summary == "Command Complete (Read BD_ADDR) status Success")
        let nop = try event([0x0E, 0x03, 0x05, 0x00, 0x00]) // 5 credits, opcode 0x0000
        guard case .commandComplete(let n) = nop.body else { Issue.record("not typed"); return }
        #expect(n.status == nil && nop.summary == "Command Complete (NOP) credits 5")
    }

    @Test func commandStatus() throws {
        // Frame 26: Command Status (LE Create Connection) success.
        let e = try event([0x0F, 0x04, 0x00, 0x01, 0x0D, 0x20])
        #expect(e.body == .commandStatus(try parsed([0x00, 0x01, 0x0D, 0x20]) { r throws(DecodeError) in
            try CommandStatusEvent(parsing: &r)
        }))
        #expect(e.summary == "Command Status (LE Create Connection) status Success")
        expectEveryTruncation([0x0C, 0x01, 0x0D, 0x20], layer: .hci, layout: [
            ("Status", 1), ("Num_HCI_Command_Packets", 1), ("Command_Opcode", 2),
        ]) { r throws(DecodeError) in _ = try CommandStatusEvent(parsing: &r) }
    }

    @Test func disconnectionComplete() throws {
        let params: [UInt8] = [0x00,       // Status
                               0x40, 0x00, // Connection_Handle 0x0040
                               0x08]       // Reason: Connection Timeout
        let e = try event([0x05, 0x04] + params)
        guard case .disconnectionComplete(let d) = e.body else { Issue.record("not typed"); return }
        #expect(d.status == .success && d.connectionHandle == 0x40 && d.reason == .connectionTimeout)
        #expect(e.summary == "Disconnection Complete handle 0x0040 reason Connection Timeout (0x08)")
        expectEveryTruncation(params, layer: .hci, layout: [("Status", 1), ("Connection_Handle", 2), ("Reason", 1)]) {
            r throws(DecodeError) in _ = try DisconnectionCompleteEvent(parsing: &r)
        }
    }

    @Test func encryptionChangeV1AndV2() throws {
        let v1 = try event([0x08, 0x04, 0x00, 0x40, 0x00, 0x01])
        let v2 = try event([0x59, 0x05, 0x00, 0x40, 0x00, 0x01, 0x10])
        guard case .encryptionChange(let a) = v1.body, case .encryptionChange(let b) = v2.body else {
            Issue.record("not typed"); return
        }
        #expect(a.encryptionEnabled == 1 && a.encryptionKeySize == nil)
        #expect(b.encryptionKeySize == 16)
        #expect(v2.summary == "Encryption Change [v2] handle 0x0040 status Success encryption on key size 16")
        expectEveryTruncation([0x00, 0x40, 0x00, 0x01, 0x10], layer: .hci, layout: [
            ("Status", 1), ("Connection_Handle", 2), ("Encryption_Enabled", 1), ("Encryption_Key_Size", 1),
        ]) { r throws(DecodeError) in _ = try EncryptionChangeEvent(parsing: &r, version2: true) }
        #expect(throws: DecodeError.leftover(layer: .hci, structure: "event parameters", at: 6, count: 1)) {
            _ = try event([0x08, 0x05, 0x00, 0x40, 0x00, 0x01, 0x10])
        }
    }

    @Test func readRemoteVersionComplete() throws {
        let params: [UInt8] = [0x00, 0x40, 0x00, // Status, handle
                               0x0D,             // Version 5.4
                               0x59, 0x00,       // Company Nordic Semiconductor ASA
                               0x34, 0x12]       // Subversion
        let e = try event([0x0C, 0x08] + params)
        guard case .readRemoteVersionInformationComplete(let v) = e.body else { Issue.record("not typed"); return }
        #expect(v.version == 0x0D && v.companyIdentifier == 0x0059 && v.subversion == 0x1234)
        #expect(e.summary == "Read Remote Version Information Complete handle 0x0040 status Success version 0x0D Nordic Semiconductor ASA")
        expectEveryTruncation(params, layer: .hci, layout: [("Status", 1), ("Connection_Handle", 2), ("Version", 1),
                                                            ("Company_Identifier", 2), ("Subversion", 2)]) {
            r throws(DecodeError) in _ = try ReadRemoteVersionInformationCompleteEvent(parsing: &r)
        }
    }

    @Test func smallControllerEvents() throws {
        // Frame 29: Number Of Completed Packets, one handle.
        let nocp = try event([0x13, 0x09, 0x02, 0x40, 0x00, 0x01, 0x00, 0x41, 0x00, 0x03, 0x00])
        #expect(nocp.body == .numberOfCompletedPackets([CompletedPackets(connectionHandle: 0x40, count: 1),
                                                        CompletedPackets(connectionHandle: 0x41, count: 3)]))
        #expect(nocp.summary == "Number Of Completed Packets handle 0x0040 1, handle 0x0041 3")
        // The first handle is kept inline, any others in an array: both read back in order.
        if case .numberOfCompletedPackets(let list) = nocp.body {
            #expect(list.map(\.connectionHandle) == [0x40, 0x41] && list.count == 2)
        }
        #expect(try event([0x13, 0x01, 0x00]).body == .numberOfCompletedPackets([]))
        expectEveryTruncation([0x01, 0x40, 0x00, 0x01, 0x00], layer: .hci, layout: [
            ("Num_Handles", 1), ("Connection_Handle", 2), ("Num_Completed_Packets", 2),
        ]) { r throws(DecodeError) in _ = try CompletedPackets.parseList(&r) }

        #expect(try event([0x10, 0x01, 0x2A]).body == .hardwareError(hardwareCode: 0x2A))
        #expect(try event([0x1A, 0x01, 0x01]).summary == "Data Buffer Overflow ACL")
        let refresh = try event([0x30, 0x03, 0x00, 0x40, 0x00])
        #expect(refresh.body == .encryptionKeyRefreshComplete(status: .success, connectionHandle: 0x40))
        let vendor = try event([0xFF, 0x03, 0x01, 0x02, 0x03])
        #expect(vendor.body == .vendor([1, 2, 3]) && vendor.summary == "Vendor Specific 010203")
        let unknown = try event([0x7A, 0x01, 0x00])
        #expect(unknown.body == .raw([0]) && unknown.code.name == "Unknown Event (0x7A)" && unknown.summary == "Unknown Event (0x7A) 00")
    }

    @Test func codeNames() {
        #expect(HCIEventCode(rawValue: 0x3E).name == "LE Meta")
        #expect(HCIEventCode(rawValue: 0x57).name == "Authenticated Payload Timeout Expired")
        #expect(HCIEventCode(rawValue: 0xFF).description == "Vendor Specific (0xFF)")
        #expect(LESubeventCode(rawValue: 0x29).name == "LE Enhanced Connection Complete [v2]")
        #expect(LESubeventCode(rawValue: 0x7F).name == "Unknown (0x7F)")
        #expect(HCIStatus(rawValue: 0x3E).description == "Connection Failed to be Established (0x3E)")
        #expect(HCIStatus(rawValue: 0x00).description == "Success")
        #expect(HCIStatus(rawValue: 0x45).name == "Packet Too Long")
        #expect(HCIStatus(rawValue: 0x46).name == "Unknown (0x46)")
        #expect((0x00...0x45).allSatisfy { AssignedNumbers.controllerErrorName(UInt8($0)) != nil })
    }
}
