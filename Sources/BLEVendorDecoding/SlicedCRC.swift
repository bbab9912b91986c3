/// A table-driven CRC that takes four bytes a step ("slicing-by-4": M. Kounavis and F. Berry,
/// "A Systematic Approach to Building High Performance Software-Based CRC Generators", IEEE
/// ISCC 2005). One table lookup a byte (`CRCTable`) is a chain of dependent loads; here the four
/// lookups of a step are independent and only the register carries over. Widths 8...16, the
/// register kept in 32 bits: in the low bits for reflected CRCs, the high bits otherwise.
struct SlicedCRC: Sendable, Equatable {
    let width: Int
    let reflected: Bool
    /// Four tables of 256 entries, one after the other: the first is `CRCTable`'s (shifted to
    /// the top of 32 bits for CRCs that are not reflected), the k-th the effect of a byte
    /// k bytes ahead of the register's end.
    private let tables: [UInt32]

    init(_ crc: CRCTable) {
        width = crc.width
        reflected = crc.reflected
        let shift = reflected ? 0 : UInt32(32 - width)
        var tables = (0..<256).map { UInt32(truncatingIfNeeded: crc.entry($0)) << shift }
        for k in 1..<4 {
            for i in 0..<256 {
                let previous = tables[(k - 1) * 256 + i]
                tables.append(reflected ? previous >> 8 ^ tables[Int(previous & 0xFF)]
                                        : previous << 8 ^ tables[Int(previous >> 24)])
            }
        }
        self.tables = tables
    }

    /// The CRC of `bytes` from a register worked out by `CRCTable.register(initial:)`, before
    /// the final XOR. (Every index is a byte, or 256 × k plus a byte: read unchecked.)
    func crc(_ bytes: UnsafeBufferPointer<UInt8>, register start: UInt64) -> UInt64 {
        tables.withUnsafeBufferPointer { t in
            var i = 0
            let n = bytes.count
            if reflected {
                var r = UInt32(truncatingIfNeeded: start)
                while n - i >= 4 {
                    let v = r ^ (UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
                    r = t[768 + Int(v & 0xFF)] ^ t[512 + Int(v >> 8 & 0xFF)] ^ t[256 + Int(v >> 16 & 0xFF)] ^ t[Int(v >> 24)]
                    i += 4
                }
                while i < n {
                    r = r >> 8 ^ t[Int((r ^ UInt32(bytes[i])) & 0xFF)]
                    i += 1
                }
                return UInt64(r)
            }
            let shift = UInt32(32 - width)
            var a = UInt32(truncatingIfNeeded: start) << shift
            while n - i >= 4 {
                let v = a ^ (UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3]))
                a = t[768 + Int(v >> 24)] ^ t[512 + Int(v >> 16 & 0xFF)] ^ t[256 + Int(v >> 8 & 0xFF)] ^ t[Int(v & 0xFF)]
                i += 4
            }
            while i < n {
                a = a << 8 ^ t[Int(a >> 24 ^ UInt32(bytes[i]))]
                i += 1
            }
            return UInt64(a >> shift)
        }
    }
}
