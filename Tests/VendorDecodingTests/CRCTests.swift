import BLEBase
import Testing
@testable import BLEVendorDecoding

struct CRCTests {
    static let check = Array("123456789".utf8)

    @Test(arguments: CRCCatalogue.entries)
    func catalogueCheckValue(entry: CRCCatalogueEntry) {
        #expect(entry.parameters.compute(Self.check) == entry.check, "\(entry.name)")
    }

    @Test func catalogueHasEveryCRC8AndNamesResolveWithAliases() {
        #expect(CRCCatalogue.entries.filter { $0.parameters.width == 8 }.count == 20)
        #expect(CRCCatalogue.entry(named: "crc-8/maxim")?.name == "CRC-8/MAXIM-DOW")
        #expect(CRCCatalogue.entry(named: "DOW-CRC")?.name == "CRC-8/MAXIM-DOW")
        #expect(CRCCatalogue.entry(named: "CRC-16/CCITT-FALSE")?.name == "CRC-16/IBM-3740")
        #expect(CRCCatalogue.entry(named: "X-25")?.name == "CRC-16/IBM-SDLC")
        #expect(CRCCatalogue.entry(named: "CRC-9/NOPE") == nil)
    }

    @Test func simpleChecksums() {
        let bytes: [UInt8] = [0xFF, 0x02, 0x10]
        #expect(ChecksumAlgorithm.sum8.compute(bytes) == 0x11)      // 0x111 mod 256
        #expect(ChecksumAlgorithm.sum16.compute(bytes) == 0x0111)
        #expect(ChecksumAlgorithm.xor8.compute(bytes) == 0xED)      // ff ^ 02 ^ 10
        #expect(ChecksumAlgorithm.sum16.size == 2 && ChecksumAlgorithm.xor8.size == 1)
    }

    @Test(arguments: CRCCatalogue.entries.filter { $0.parameters.initial == 0 && $0.parameters.xorOut == 0 })
    func tableMatchesBitwiseModel(entry: CRCCatalogueEntry) {
        let p = entry.parameters
        let table = CRCTable(width: p.width, poly: p.poly, reflected: p.reflectIn)
        #expect(table.crc(Self.check) == entry.check, "\(entry.name)")
    }

    /// Four bytes a step (`SlicedCRC`) against the bit-by-bit model, for every catalogue CRC the
    /// tables cover, at every length from none to ten steps and three bytes more.
    @Test(arguments: CRCCatalogue.entries.filter { CRCTable(for: .crc($0.parameters)) != nil })
    func slicedTablesMatchTheModelAtEveryLength(entry: CRCCatalogueEntry) {
        let p = entry.parameters
        let spec = ChecksumSpec(algorithm: .crc(p), at: 0, bigEndian: true, from: 0, to: 0)
        #expect(Self.check.withUnsafeBufferPointer { spec.compute($0) } == entry.check, "\(entry.name)")
        var seed: UInt32 = 0x1234_5678
        let bytes = (0..<43).map { _ in
            seed = seed &* 1_103_515_245 &+ 12_345
            return UInt8(truncatingIfNeeded: seed >> 16)
        }
        for count in 0...bytes.count {
            let prefix = Array(bytes.prefix(count))
            #expect(prefix.withUnsafeBufferPointer { spec.compute($0) } == p.compute(prefix), "\(entry.name), \(count) bytes")
        }
    }

    @Test func checksumSpecReadsPositionRangeAndEmptyValue() {
        // aa 01 59 00 00 | f4 | 55 : demo lock GET_INFO, CRC-8/MAXIM over bytes 0..<5 at -2.
        let frame: [UInt8] = [0xAA, 0x01, 0x59, 0x00, 0x00, 0xF4, 0x55]
        let spec = ChecksumSpec(algorithm: .crc(CRCCatalogue.entry(named: "CRC-8/MAXIM-DOW")!.parameters),
                                at: -2, bigEndian: true, from: 0, to: -2)
        #expect(spec.verify(sent: ByteView(frame), covered: ByteView(frame))?.stored == 0xF4)
        #expect(spec.verify(sent: ByteView(frame), covered: ByteView(frame))?.computed == 0xF4)
        #expect(spec.verify(sent: [0xAA], covered: [0xAA]) == nil)
        // Treadmill: CRC-16/IBM-3740 (LE at offset 8) of an empty body is written as 0x0000.
        let empty: [UInt8] = [0x55, 0xAA, 0x01, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00]
        var tread = ChecksumSpec(algorithm: .crc(CRCCatalogue.entry(named: "CRC-16/IBM-3740")!.parameters),
                                 at: 8, bigEndian: false, from: 10, to: 0)
        #expect(tread.verify(sent: ByteView(empty), covered: ByteView(empty))?.computed == 0xFFFF)
        tread.emptyValue = 0
        #expect(tread.verify(sent: ByteView(empty), covered: ByteView(empty))?.computed == 0)
    }
}
