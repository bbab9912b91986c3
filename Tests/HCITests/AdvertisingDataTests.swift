import BLEBase
@testable import BLEHCI
import Testing

@Suite struct AdvertisingDataTests {
    func ad(_ bytes: [UInt8]) -> AdvertisingData {
        var reader = ByteReader(bytes, layer: .advertisingData)
        return AdvertisingData(parsing: &reader)
    }

    func value(_ type: UInt8, _ data: [UInt8]) -> ADValue {
        ADStructure(type: ADType(rawValue: type), data: data).value
    }

    @Test func everyTypedStructure() {
        let uuid128: [UInt8] = Array(BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!.bytes.reversed())
        #expect(value(0x01, [0x06]) == .flags(ADFlags(rawValue: 0x06)))
        #expect(value(0x02, [0x0F, 0x18]) == .serviceUUIDs([BluetoothUUID(uint16: 0x180F)], complete: false))
        #expect(value(0x03, [0x0F, 0x18, 0x0A, 0x18]) == .serviceUUIDs([BluetoothUUID(uint16: 0x180F), BluetoothUUID(uint16: 0x180A)], complete: true))
        #expect(value(0x05, [0x78, 0x56, 0x34, 0x12]) == .serviceUUIDs([BluetoothUUID(uint32: 0x1234_5678)], complete: true))
        #expect(value(0x07, uuid128) == .serviceUUIDs([BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!], complete: true))
        #expect(value(0x08, Array("DEM".utf8)) == .localName(ADLocalName(bytes: Array("DEM".utf8), isComplete: false)))
        #expect(value(0x0A, [0xF4]) == .txPowerLevel(-12))
        #expect(value(0x0D, [0x0C, 0x02, 0x5A]) == .classOfDevice(0x5A020C))
        #expect(value(0x14, [0x0F, 0x18]) == .serviceSolicitation([BluetoothUUID(uint16: 0x180F)]))
        #expect(value(0x1F, [0x78, 0x56, 0x34, 0x12]) == .serviceSolicitation([BluetoothUUID(uint32: 0x1234_5678)]))
        #expect(value(0x15, uuid128) == .serviceSolicitation([BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!]))
        #expect(value(0x16, [0xAA, 0xFE, 0x10, 0x00]) == .serviceData(uuid: BluetoothUUID(uint16: 0xFEAA), data: [0x10, 0x00]))
        #expect(value(0x20, [0x78, 0x56, 0x34, 0x12, 0x01]) == .serviceData(uuid: BluetoothUUID(uint32: 0x1234_5678), data: [1]))
        #expect(value(0x21, uuid128 + [9]) == .serviceData(uuid: BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!, data: [9]))
        #expect(value(0x17, [1, 2, 3, 4, 5, 6]) == .targetAddresses([BluetoothAddress("06:05:04:03:02:01")!], random: false))
        #expect(value(0x18, [1, 2, 3, 4, 5, 6]) == .targetAddresses([BluetoothAddress("06:05:04:03:02:01")!], random: true))
        #expect(value(0x19, [0x41, 0x03]) == .appearance(0x0341))
        #expect(value(0x1A, [0xA0, 0x00]) == .advertisingInterval(160))
        #expect(value(0x1B, [1, 2, 3, 4, 5, 0xC6, 0x01]) == .leBluetoothDeviceAddress(BluetoothAddress("C6:05:04:03:02:01")!, random: true))
        #expect(value(0x1C, [0x02]) == .leRole(2))
        #expect(value(0x24, [0x17] + Array("//example.com".utf8)) == .uri(scheme: 0x17, text: "//example.com"))
        #expect(value(0xFF, [0x4C, 0x00, 0x02, 0x15]) == .manufacturerSpecificData(companyID: 0x004C, data: [0x02, 0x15]))
        #expect(value(0x2E, [1, 2, 3]) == .raw)
        #expect(ADType(rawValue: 0x2E).name == "Resolvable Set Identifier")
        #expect(ADType(rawValue: 0x7E).description == "Unknown (0x7E)")
    }

    @Test func malformedStructuresKeepBytes() {
        #expect(value(0x03, [0x0F, 0x18, 0x0A]) == .malformed(.invalid(layer: .advertisingData, field: "UUID list", at: 0,
                                                                        reason: "3 bytes is not a multiple of 2")))
        #expect(value(0x0A, []) == .malformed(.truncated(layer: .advertisingData, field: "TX Power Level", at: 0,
                                                         needed: 1, available: 0)))
        #expect(value(0x19, [0x41, 0x03, 0x00]) == .malformed(.leftover(layer: .advertisingData, structure: "AD structure",
                                                                         at: 2, count: 1)))
        #expect(value(0xFF, [0x4C]) == .malformed(.truncated(layer: .advertisingData, field: "Company Identifier", at: 0,
                                                             needed: 2, available: 1)))
    }

    @Test func sequencePaddingAndAccessors() {
        let bytes: [UInt8] = [0x02, 0x01, 0x06,                          // Flags
                              0x03, 0x03, 0x0F, 0x18,                    // Complete 16-bit UUIDs 180F
                              0x04, 0x08, 0x44, 0x45, 0x4D,              // Shortened name "DEM"
                              0x05, 0x09, 0x44, 0x45, 0x4D, 0x4F,        // Complete name "DEMO"
                              0x02, 0x0A, 0x04,                          // TX power 4 dBm
                              0x04, 0x16, 0x0F, 0x18, 0x64,              // Service data 180F: 100
                              0x05, 0xFF, 0x59, 0x00, 0x01, 0x02,        // Nordic: 01 02
                              0x00, 0x00, 0x00]                          // early termination + padding
        let data = ad(bytes)
        #expect(data.structures.count == 7 && data.paddingLength == 3 && data.error == nil)
        #expect(data.localName == "DEMO" && data.txPower == 4 && data.flags?.contains(.leGeneralDiscoverable) == true)
        #expect(data.serviceUUIDs == [BluetoothUUID(uint16: 0x180F)])
        #expect(data.manufacturerData.map(\.companyID) == [0x0059] && data.manufacturerData.first?.data == [1, 2])
        #expect(data.serviceData.first?.uuid == BluetoothUUID(uint16: 0x180F) && data.serviceData.first?.data == [0x64])
        #expect(data.summary == "name \"DEMO\" services 180F mfr Nordic Semiconductor ASA (0x0059) 2 bytes")
        #expect(data.flags?.names == ["LE General Discoverable Mode", "BR/EDR Not Supported"])
    }

    @Test func lengthPastEndKeepsEarlierStructures() {
        let data = ad([0x02, 0x01, 0x06,       // Flags
                       0x09, 0x09, 0x41, 0x42]) // Complete name claiming 8 bytes, 3 present
        #expect(data.structures.count == 1)
        #expect(data.error == .truncated(layer: .advertisingData, field: "AD length", at: 3, needed: 9, available: 3))
        #expect(data.summary == "[ad: AD length truncated at byte 3: needs 9, 3 left]")
    }

    @Test func namesAreLossyAndEscapedInSummaries() {
        let data = ad([0x05, 0x09, 0x41, 0xFF, 0x22, 0x0A]) // "A", invalid byte, quote, newline
        #expect(data.localName == "A\u{FFFD}\"\n")
        #expect(data.summary == "name \"A\u{FFFD}\\\"\\x0A\"")
    }

    /// A structure's data is read where it lies (a record's buffer): it reads back the same and
    /// equals a structure made from a copy of its bytes.
    @Test func dataReadInPlaceEqualsACopy() {
        let record: [UInt8] = [0xEE, 0xEE, 0x04, 0xFF, 0x4C, 0x00, 0x02, 0xEE]
        var reader = ByteReader(record, range: 2..<7, layer: .advertisingData)
        let data = AdvertisingData(parsing: &reader)
        #expect(data.structures.map(\.data) == [[0x4C, 0x00, 0x02]])
        #expect(data.structures == [ADStructure(type: ADType(rawValue: 0xFF), data: [0x4C, 0x00, 0x02])])
        #expect(data.structures != [ADStructure(type: ADType(rawValue: 0xFF), data: [0x4C, 0x00, 0x03])])
    }
}
