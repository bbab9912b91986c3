import CaptureFormats
import Dispatch
import PacketDecoding

/// Reads and decodes a capture on a second thread while the caller's thread runs the stages
/// above: packets cross in batches through a bounded `HandOff`, so at most
/// `batchSize × batchesInFlight` decoded packets wait (memory stays bounded).
enum DecodingThread {
    static let batchSize = 256
    static let batchesInFlight = 4

    private enum Message: Sendable {
        case packets([DecodedPacket])
        case end(issues: [PacketIssue])
    }

    /// The reader moves to the decoding thread and is used there only until it sends `.end`;
    /// the caller touches it again only after receiving that (the hand-off orders the two).
    private final class ReaderTransfer: @unchecked Sendable {
        let reader: any RecordReader
        init(_ reader: any RecordReader) { self.reader = reader }
    }

    /// Returns the decoder's closing issues once every packet went through `stages`.
    static func decode(_ reader: any RecordReader, into stages: inout AnalysisStages) -> [PacketIssue] {
        let handOff = HandOff<Message>(capacity: batchesInFlight)
        let transfer = ReaderTransfer(reader)
        DispatchQueue.global().async {
            var decoder = PacketDecoder()
            var batch: [DecodedPacket] = []
            batch.reserveCapacity(batchSize)
            while let record = transfer.reader.next() {
                batch.append(decoder.decode(record))
                if batch.count == batchSize {
                    handOff.send(.packets(batch))
                    batch = []
                    batch.reserveCapacity(batchSize)
                }
            }
            if !batch.isEmpty { handOff.send(.packets(batch)) }
            handOff.send(.end(issues: decoder.finish()))
        }
        while let message = handOff.receive() {
            switch message {
            case .packets(let packets):
                for packet in packets { stages.take(packet) }
            case .end(let issues):
                return issues
            }
        }
        return []
    }
}
