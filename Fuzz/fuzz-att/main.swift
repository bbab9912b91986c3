import BLEATT
import BLEBase
import FuzzSupport

FuzzInput.run(fuzzATT)

/// One ATT PDU: decoded, rendered (summary and fields), and its opcode peeked.
func fuzzATT(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    var reader = ByteReader(bytes, layer: .att)
    if let pdu = try? ATTPDU(parsing: &reader) { _ = (pdu.summary, pdu.fields) }
    _ = ATTPDU.peekOpcode(ByteReader(bytes, layer: .att))?.name
    return 0
}
