/// Encodes frames of the demo lock's vendor protocol (../shared/profiles/demo-lock.md):
///
/// ```
/// offset  size  field
/// 0       1     sync 0xAA
/// 1       1     command (responses: command | 0x80)
/// 2       1     sequence
/// 3       2     payload length N, big-endian
/// 5       N     payload XOR (0x5A − sequence) mod 256
/// 5+N     1     CRC-8/MAXIM over bytes 0 ..< 5+N (as sent)
/// 6+N     1     tail 0x55
/// ```
public enum DemoLockFrame {
    public static func encode(command: UInt8, sequence: UInt8, plaintext: [UInt8], corruptCRC: Bool = false) -> [UInt8] {
        let key = UInt8(truncatingIfNeeded: 0x5A &- Int(sequence))
        var frame: [UInt8] = [0xAA, command, sequence, UInt8(plaintext.count >> 8), UInt8(plaintext.count & 0xFF)]
        frame += plaintext.map { $0 ^ key }
        let crc = crc8Maxim(frame)
        frame.append(corruptCRC ? crc ^ 0x5A : crc)
        frame.append(0x55)
        return frame
    }

    /// CRC-8/MAXIM: poly 0x31 reflected (0x8C), init 0, refin/refout, xorout 0; check("123456789") = 0xA1.
    public static func crc8Maxim(_ bytes: [UInt8]) -> UInt8 {
        var crc: UInt8 = 0
        for byte in bytes {
            crc ^= byte
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x8C : crc >> 1 }
        }
        return crc
    }
}
