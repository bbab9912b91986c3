/// A CRC in the Rocksoft model (Ross Williams, "A Painless Guide to CRC Error Detection
/// Algorithms", §15; the parameters the reveng catalogue lists): width, polynomial (normal form,
/// without the top bit), initial register, whether input bytes and the output are reflected, and
/// the final XOR. Widths 1...16 are accepted; profiles use 8 and 16.
public struct CRCParameters: Sendable, Equatable, Hashable {
    public var width: Int
    public var poly: UInt64
    public var initial: UInt64
    public var reflectIn: Bool
    public var reflectOut: Bool
    public var xorOut: UInt64

    public init(width: Int, poly: UInt64, initial: UInt64, reflectIn: Bool, reflectOut: Bool, xorOut: UInt64) {
        let mask: UInt64 = width >= 64 ? .max : (1 << UInt64(max(width, 1))) - 1
        self.width = width
        self.poly = poly & mask
        self.initial = initial & mask
        self.reflectIn = reflectIn
        self.reflectOut = reflectOut
        self.xorOut = xorOut & mask
    }

    var mask: UInt64 { (1 << UInt64(width)) - 1 }

    /// The CRC of `bytes`, bit by bit (the model's definition; speed matters only in inference,
    /// which uses its own tables).
    public func compute<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        let top: UInt64 = 1 << UInt64(width - 1)
        var register = initial
        for byte in bytes {
            let input = reflectIn ? UInt64(Self.reflect(UInt64(byte), bits: 8)) : UInt64(byte)
            for bit in (0..<8).reversed() {
                let inBit = (input >> UInt64(bit)) & 1
                let topBit = (register & top) != 0 ? UInt64(1) : 0
                register = (register << 1) & mask
                if topBit ^ inBit == 1 { register ^= poly }
            }
        }
        if reflectOut { register = Self.reflect(register, bits: width) }
        return register ^ xorOut
    }

    /// The low `bits` bits of `value` in reverse order.
    static func reflect(_ value: UInt64, bits: Int) -> UInt64 {
        var out: UInt64 = 0
        for i in 0..<bits where value & (1 << UInt64(i)) != 0 { out |= 1 << UInt64(bits - 1 - i) }
        return out
    }
}
