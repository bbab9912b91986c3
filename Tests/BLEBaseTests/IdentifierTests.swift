import BLEAssignedNumbers
import BLEBase
import Foundation
import Testing

@Suite struct BluetoothAddressTests {
    @Test func wireOrderIsLSBFirstAndPrintsMSBFirst() throws {
        var r = ByteReader([0xDD, 0xC7, 0x0E, 0xF9, 0x30, 0x6B])
        let address = try BluetoothAddress(parsing: &r)
        #expect(address.description == "6B:30:F9:0E:C7:DD" && address.value == 0x6B30_F90E_C7DD)
        #expect(address.wire == [0xDD, 0xC7, 0x0E, 0xF9, 0x30, 0x6B] && address.msbFirst == [0x6B, 0x30, 0xF9, 0x0E, 0xC7, 0xDD])
        #expect(BluetoothAddress(wire: address.wire) == address && BluetoothAddress(msbFirst: address.msbFirst) == address)
        #expect(BluetoothAddress("6b-30-f9-0e-c7-dd") == address && BluetoothAddress("6B30F90EC7DD") == address)
        #expect(BluetoothAddress("6B:30:F9:0E:C7") == nil && BluetoothAddress("zz:30:F9:0E:C7:DD") == nil)
        #expect(BluetoothAddress(value: 0xFFFF_0000_0000_0001).value == 0x0000_0000_0001)
        #expect(BluetoothAddress(value: 1) < BluetoothAddress(value: 2))
    }

    @Test func everyTruncation() {
        for present in 0..<6 {
            var r = ByteReader(Array(repeating: 0, count: present), layer: .hci)
            #expect(throws: DecodeError.truncated(layer: .hci, field: "BD_ADDR", at: 0, needed: 6, available: present)) {
                _ = try BluetoothAddress(parsing: &r)
            }
        }
    }

    @Test func randomSubTypesFromTopTwoBits() {
        #expect(BluetoothAddress("C6:05:04:03:02:01")!.randomSubType == .staticAddress)
        #expect(BluetoothAddress("6B:30:F9:0E:C7:DD")!.randomSubType == .resolvablePrivate)
        #expect(BluetoothAddress("3B:30:F9:0E:C7:DD")!.randomSubType == .nonResolvablePrivate)
        #expect(BluetoothAddress("8B:30:F9:0E:C7:DD")!.randomSubType == .reserved)
    }

    @Test func addressTypes() {
        #expect(AddressType.randomDevice.isRandom && AddressType.randomIdentity.isRandom && !AddressType.publicDevice.isRandom)
        #expect(AddressType(rawValue: 2).description == "public-identity" && AddressType.anonymous.description == "anonymous")
        #expect(AddressType(rawValue: 7).description == "unknown(0x07)")
    }

    @Test func codableAsText() throws {
        let address = BluetoothAddress("00:1A:7D:DA:44:20")!
        let json = try JSONEncoder().encode([address])
        #expect(String(decoding: json, as: UTF8.self) == "[\"00:1A:7D:DA:44:20\"]")
        #expect(try JSONDecoder().decode([BluetoothAddress].self, from: json) == [address])
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode([BluetoothAddress].self, from: Data("[\"x\"]".utf8)) }
    }
}

@Suite struct BluetoothUUIDTests {
    @Test func canonicalEqualityAcrossWidths() {
        let short = BluetoothUUID(uint16: 0x180F)
        #expect(BluetoothUUID("180F") == short && BluetoothUUID("0x180f") == short && BluetoothUUID("0000180F") == short)
        #expect(BluetoothUUID("0000180F-0000-1000-8000-00805F9B34FB") == short)
        #expect(BluetoothUUID(wire: [0x0F, 0x18]) == short && BluetoothUUID(wire: [0x0F, 0x18, 0x00, 0x00]) == short)
        #expect(Set([short, BluetoothUUID(uint32: 0x180F)]).count == 1)
        #expect(BluetoothUUID(wire: [1, 2, 3]) == nil && BluetoothUUID("18F") == nil && BluetoothUUID("12345") == nil)
    }

    @Test func printingFollowsTheReportContract() {
        #expect(BluetoothUUID(uint16: 0x2a19).description == "2A19")
        #expect(BluetoothUUID(uint32: 0x1234_5678).description == "12345678")
        let vendor = BluetoothUUID("6e400001-b5a3-f393-e0a9-e50e24dcca9e")!
        #expect(vendor.description == "6E400001-B5A3-F393-E0A9-E50E24DCCA9E" && vendor.uint16 == nil && !vendor.isOnBase)
        #expect(BluetoothUUID(uint32: 0x0001_180F).uint16 == nil && BluetoothUUID(uint32: 0x0001_180F).uint32 == 0x0001_180F)
    }

    @Test func parsingFromWireOrder() throws {
        var r = ByteReader([0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E])
        #expect(try BluetoothUUID(parsing: &r, width: 16) == BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E"))
        var short = ByteReader([0x0F], layer: .att)
        #expect(throws: DecodeError.truncated(layer: .att, field: "UUID", at: 0, needed: 2, available: 1)) {
            _ = try BluetoothUUID(parsing: &short, width: 2)
        }
        var four = ByteReader([0x78, 0x56, 0x34, 0x12])
        #expect(try BluetoothUUID(parsing: &four, width: 4) == BluetoothUUID(uint32: 0x1234_5678))
        var cut = ByteReader([UInt8](repeating: 0, count: 15), layer: .att)
        #expect(throws: DecodeError.truncated(layer: .att, field: "UUID", at: 0, needed: 16, available: 15)) {
            _ = try BluetoothUUID(parsing: &cut, width: 16)
        }
        var odd = ByteReader([1, 2, 3], layer: .att)
        #expect(throws: DecodeError.invalid(layer: .att, field: "UUID", at: 0, reason: "UUID width 3 is not 2, 4 or 16")) {
            _ = try BluetoothUUID(parsing: &odd, width: 3)
        }
    }

    @Test func bytesRoundTripAndOrderAsPrinted() {
        let vendor = BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!
        #expect(vendor.bytes == [0x6E, 0x40, 0x00, 0x01, 0xB5, 0xA3, 0xF3, 0x93, 0xE0, 0xA9, 0xE5, 0x0E, 0x24, 0xDC, 0xCA, 0x9E])
        #expect(vendor.high == 0x6E40_0001_B5A3_F393 && vendor.low == 0xE0A9_E50E_24DC_CA9E)
        #expect(BluetoothUUID(msbFirst: vendor.bytes) == vendor)
        #expect(BluetoothUUID(uint16: 0x180F).bytes
            == [0x00, 0x00, 0x18, 0x0F, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0x80, 0x5F, 0x9B, 0x34, 0xFB])
        // Ordered as the printed bytes: the first differing byte decides, on either side of byte 8.
        let lastByte = BluetoothUUID(msbFirst: [UInt8](repeating: 0, count: 15) + [0x01])
        let firstByte = BluetoothUUID(msbFirst: [0x01] + [UInt8](repeating: 0, count: 15))
        let ninthByte = BluetoothUUID(msbFirst: [UInt8](repeating: 0, count: 8) + [0xFF] + [UInt8](repeating: 0, count: 7))
        #expect(lastByte < ninthByte && ninthByte < firstByte && !(firstByte < lastByte))
        #expect([firstByte, lastByte, ninthByte].sorted() == [lastByte, ninthByte, firstByte])
    }

    @Test func codableAndOrdered() throws {
        let json = try JSONEncoder().encode([BluetoothUUID(uint16: 0x180F)])
        #expect(String(decoding: json, as: UTF8.self) == "[\"180F\"]")
        #expect(try JSONDecoder().decode([BluetoothUUID].self, from: json) == [BluetoothUUID(uint16: 0x180F)])
        #expect(BluetoothUUID(uint16: 0x1800) < BluetoothUUID(uint16: 0x180F))
    }
}

@Suite struct HexAndTimestampTests {
    @Test func decimalTextPadsToWidth() {
        func text(_ value: Int64, _ width: Int = 0) -> String {
            ">" + String(unsafeUninitializedCapacity: Swift.max(width, 20)) {
                DecimalText.write(value, width: width, at: $0.baseAddress!)
            }
        }
        #expect([text(0), text(9), text(10), text(-7), text(Int64.max), text(Int64.min)]
            == [">0", ">9", ">10", ">-7", ">9223372036854775807", ">-9223372036854775808"])
        #expect([text(5, 2), text(123_456, 6), text(42, 6), text(1234, 2), text(-3, 4), text(-1234, 4)]
            == [">05", ">123456", ">000042", ">1234", ">00-3", ">-1234"])
    }

    @Test func hex() {
        #expect(Hex.string([0xAA, 0x01, 0x59]) == "aa0159" && Hex.string([1, 2, 3], limit: 2) == "0102...")
        #expect(Hex.code(UInt8(0x1F)) == "0x1F" && Hex.code(0x40, width: 4) == "0x0040")
        #expect(Hex.bytes("aa:01 59-FF") == [0xAA, 0x01, 0x59, 0xFF] && Hex.bytes("abc") == nil && Hex.bytes("zz") == nil)
    }

    @Test func timestamps() {
        #expect(Timestamp.iso8601(unixMicroseconds: 1_700_000_000_000_000) == "2023-11-14T22:13:20.000000Z")
        #expect(Timestamp.iso8601(unixMicroseconds: 1_714_033_432_123_646) == "2024-04-25T08:23:52.123646Z")
        #expect(Timestamp.iso8601(unixMicroseconds: -1) == "1969-12-31T23:59:59.999999Z")
        #expect(Timestamp.iso8601(unixMicroseconds: 951_782_400_000_000) == "2000-02-29T00:00:00.000000Z")
        // The ends of the clamped range, year 0 and a year before it (the sign counts as a digit).
        #expect(Timestamp.iso8601(unixMicroseconds: Timestamp.limitUs) == "11103-08-29T17:22:31.711744Z")
        #expect(Timestamp.iso8601(unixMicroseconds: -Timestamp.limitUs) == "-7164-05-05T06:37:28.288256Z")
        #expect(Timestamp.iso8601(unixMicroseconds: -62_135_596_800_000_001) == "0000-12-31T23:59:59.999999Z")
        #expect(Timestamp.iso8601(unixMicroseconds: -62_233_315_200_000_000) == "00-3-11-27T00:00:00.000000Z")
        #expect(Timestamp.relativeSeconds(12_345_678) == "12.345678" && Timestamp.relativeSeconds(-1_000_001) == "-1.000001")
    }
}

@Suite struct AssignedNumbersTests {
    @Test func gattNames() {
        let names: [UInt16: String] = [0x1800: "Generic Access", 0x180F: "Battery", 0x180D: "Heart Rate",
                                       0x2A00: "Device Name", 0x2A01: "Appearance", 0x2A05: "Service Changed",
                                       0x2A19: "Battery Level", 0x2A37: "Heart Rate Measurement",
                                       0x2A18: "Glucose Measurement", 0x2A9D: "Weight Measurement",
                                       0x2800: "Primary Service", 0x2803: "Characteristic",
                                       0x2902: "Client Characteristic Configuration", 0x2912: "Measurement Description"]
        for (uuid, name) in names { #expect(AssignedNumbers.name(for: BluetoothUUID(uint16: uuid)) == name) }
        #expect(AssignedNumbers.name(for: BluetoothUUID("0000180F-0000-1000-8000-00805F9B34FB")!) == "Battery")
        #expect(AssignedNumbers.name(for: BluetoothUUID(uint16: 0x2BFF)) == nil)
        #expect(AssignedNumbers.name(for: BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!) == nil)
    }

    @Test func companyNames() {
        let names: [UInt16: String] = [0x004C: "Apple, Inc.", 0x0006: "Microsoft", 0x0075: "Samsung Electronics Co. Ltd.",
                                       0x00E0: "Google", 0x0059: "Nordic Semiconductor ASA",
                                       0x02E5: "Espressif Systems (Shanghai) Co., Ltd.", 0x038F: "Xiaomi Inc.",
                                       0x0087: "Garmin International, Inc.", 0x000F: "Broadcom Corporation",
                                       0x001D: "Qualcomm", 0x0002: "Intel Corp.", 0x000D: "Texas Instruments Inc.",
                                       0xFFFF: "Reserved for testing"]
        for (id, name) in names { #expect(AssignedNumbers.companyName(id) == name) }
        #expect(AssignedNumbers.companyName(0xFFFE) == nil)
    }

    @Test func appearanceCategories() {
        #expect(AssignedNumbers.appearanceCategoryName(0x0341) == "Heart Rate Sensor")
        #expect(AssignedNumbers.appearanceCategoryName(0x00C0) == "Watch")
        #expect(AssignedNumbers.appearanceCategoryName(0xFFC0) == nil)
    }
}
