import BLEBase
import FuzzSupport
import BLEL2CAP

FuzzInput.run(fuzzL2CAP)

/// L2CAP reassembly over a sequence of fragments (stream, start flag, bytes, cut), and every
/// complete frame decoded as signalling and SMP and rendered.
func fuzzL2CAP(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var cursor = FuzzCursor(FuzzInput.bytes(start, count))
    var reassembler = L2CAPReassembler()
    var index = 0
    while !cursor.isAtEnd {
        index += 1
        let control = cursor.byte()
        let key = FragmentStreamKey(connection: UInt32(control & 0x03), direction: (control >> 2) & 1)
        let step = reassembler.feed(key: key, isStart: control & 0x10 != 0, fragment: ByteReader(cursor.chunk()),
                                    recordIndex: index, timestampUs: Int64(index), truncatedBy: Int(control >> 6))
        var frames: [L2CAPFrame] = []
        switch step {
        case .frame(let frame): frames = [frame]
        case .events(_, .complete(let frame)?): frames = [frame]
        case .events: break
        }
        for frame in frames {
            var signalling = frame.body
            signalling.layer = .signalling
            if let pdu = try? SignallingPDU(parsing: &signalling) { _ = (pdu.summary, pdu.fields) }
            var smp = frame.body
            smp.layer = .smp
            if let command = try? SMPCommand(parsing: &smp) { _ = (command.summary, command.fields) }
        }
    }
    _ = reassembler.flushAll()
    return 0
}
