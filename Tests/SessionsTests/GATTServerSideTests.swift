import AnalyzerTestSupport
import BLEATT
import BLEBase
import BLESessions
import Foundation
import Testing

/// Either side of a link may be a GATT server (Core v5.4 Vol 3 Part G §2.2): a watch discovers and
/// writes the phone's own server. Those handles are the host's, not the device's.
struct GATTServerSideTests {
    @Test func theDevicesRequestsGoToTheHostsServer() throws {
        let report = analyze(SampleScenarios.lockAClientOfTheHost().records).report
        let connection = try #require(report.connections.first)
        #expect(report.failures.map(\.summary) == ["Write Request to the host's handle 0x0000 failed: Invalid Handle (0x01)"])
        // The host's service is the host's: not in the device's database.
        #expect(connection.otherSideGATT.map(\.handle) == [0x0020])
        #expect(connection.otherSideGATT.first?.uuid == BluetoothUUID(uint16: 0x1805))
        let device = try #require(report.devices.first { $0.id == connection.deviceID })
        #expect(!device.gatt.contains { $0.uuid == BluetoothUUID(uint16: 0x1805) })
        #expect(connection.otherSideDiscovery != nil)
        let hostKeys = connection.transactionTotals.byKey.filter { $0.key.server == .host }.map(\.key)
        #expect(hostKeys.map(\.opcode) == [0x12, 0x10])
        #expect(hostKeys.map(\.handle) == [0x0000, 0x0001])
    }

    /// The server of each PDU: a client's PDU goes to its receiver, a notification or indication
    /// comes from its sender.
    @Test func serverOfEachPDU() {
        #expect(GATTServer(of: .writeRequest, sentIn: .sent) == .device)
        #expect(GATTServer(of: .writeRequest, sentIn: .received) == .host)
        #expect(GATTServer(of: .writeCommand, sentIn: .peripheralToCentral) == .central)
        #expect(GATTServer(of: .readRequest, sentIn: .centralToPeripheral) == .device)
        #expect(GATTServer(of: .handleValueNotification, sentIn: .received) == .device)
        #expect(GATTServer(of: .handleValueNotification, sentIn: .sent) == .host)
        #expect(GATTServer(of: .handleValueIndication, sentIn: .centralToPeripheral) == .central)
        #expect(GATTServer(of: .multipleHandleValueNotification, sentIn: .peripheralToCentral) == .device)
    }
}

/// garmin.pcapng: the Edge 540 (peripheral) and the iPhone (central) discover each other's server at
/// once (records 4452–4478); the phone's services (ANCS 7905F431…, Device Information) are the
/// central's, its Service Changed indication the host's, not the device's.
@Suite(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
struct RealGATTServerSideTests {
    @Test func garminAndThePhoneDiscoverEachOther() throws {
        let report = try analyzeFile(SharedCaptures.path("real/garmin.pcapng"))
        let connection = try #require(report.connections.first)
        let device = try #require(report.devices.first { $0.id == connection.deviceID })
        let services = { (gatt: [GATTAttribute]) in gatt.filter { $0.kind == .service }.map(\.uuid.description) }
        #expect(services(device.gatt) == ["1800", "1801", "6A4E8022-667B-11E3-949A-0800200C9A66",
                                          "6A4E2800-667B-11E3-949A-0800200C9A66"])
        #expect(services(connection.otherSideGATT) == ["1800", "1801", "180A", "D0611E78-BBB4-4591-A5F8-487910AE4366",
                                                       "9FA480E0-4967-4542-9390-D343DC5D04AE",
                                                       "7905F431-B5CE-4E99-A40F-4B1E122D00D0",
                                                       "89D3502B-0F36-433A-8EF4-C502AD55F8DC"])
    }

    /// fossibot: the phone's own Service Changed (record 4542, sent by the host) indicates to the device.
    @Test func theHostsIndicationIsTheHosts() throws {
        let report = try analyzeFile(SharedCaptures.path("real/fossibot_btsnoop_hci.log"))
        let keys = report.connections.flatMap { $0.transactionTotals.byKey.map(\.key) }.filter { $0.opcode == 0x1D }
        #expect(keys.map(\.server) == [.host])
        #expect(keys.map(\.handle) == [0x0003])
    }
}
