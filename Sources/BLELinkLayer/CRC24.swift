/// The LL CRC (Core v5.4 Vol 6 Part B §3.1.1): polynomial x²⁴+x¹⁰+x⁹+x⁶+x⁴+x³+x+1 in a 24-bit
/// LFSR preset with CRCInit (position 0 = its LSB; 0x555555 on advertising channels), fed with
/// the PDU's bits LSB first per byte. The register is sent from position 23 first, and each
/// byte goes on air LSB first, so the three CRC bytes read little-endian hold the register
/// bit-reversed.
public enum CRC24 {
    public static let advertisingInit: UInt32 = 0x555555

    /// The LFSR contents after `pdu` (header and payload).
    public static func register<S: Sequence>(_ pdu: S, initial: UInt32) -> UInt32 where S.Element == UInt8 {
        var state = initial & 0xFF_FFFF
        for byte in pdu {
            var bits = byte
            for _ in 0..<8 {
                let feedback = ((state >> 23) ^ UInt32(bits)) & 1
                state = (state << 1) & 0xFF_FFFF
                if feedback == 1 { state ^= 0x00_065B }
                bits >>= 1
            }
        }
        return state
    }

    /// The CRC as its three bytes read little-endian from the packet.
    public static func wireValue<S: Sequence>(_ pdu: S, initial: UInt32) -> UInt32 where S.Element == UInt8 {
        reverse24(register(pdu, initial: initial))
    }

    static func reverse24(_ value: UInt32) -> UInt32 {
        var out: UInt32 = 0
        for i in 0..<24 where value & (1 << UInt32(i)) != 0 { out |= 1 << UInt32(23 - i) }
        return out
    }
}
