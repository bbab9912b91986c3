import BLEAnalysis
import Dispatch

/// Writes the elements of a long JSON array on two threads: the array is cut into pieces of
/// `pieceSize` elements; a helper thread writes the odd pieces while the caller writes the even
/// ones, and the caller lends each odd piece to the sink in its place as it comes. At the end of
/// an analysis the session thread is idle, so its core can write half the report's arrays (a long
/// capture's are tens of MB). At most `piecesAhead` written pieces wait, so memory stays bounded.
enum ParallelJSON {
    static let pieceSize = 32
    static let piecesAhead = 2

    /// Writes `elements` as the next values of the array open in `w`, lending `w`'s text to `sink`
    /// whenever it holds `chunkSize` bytes or more, and a helper's piece straight after it (not
    /// copied into `w`). `parallel` false writes them all here.
    static func writeElements<Element: Sendable>(_ elements: [Element], into w: inout JSONWriter, parallel: Bool,
                                                 chunkSize: Int, sink: (UnsafeBufferPointer<UInt8>) -> Void,
                                                 render: @escaping @Sendable (Element, inout JSONWriter) -> Void) {
        func flushIfFull(_ w: inout JSONWriter) { if w.count >= chunkSize { w.lendBytes(to: sink) } }
        let pieces = (elements.count + pieceSize - 1) / pieceSize
        guard parallel, pieces >= 2 else {
            for element in elements {
                render(element, &w)
                flushIfFull(&w)
            }
            return
        }
        let handOff = HandOff<JSONWriter>(capacity: piecesAhead)
        DispatchQueue(label: "bledecode.json").async {
            // Each piece starts with the room the one before needed, so that its buffer need not grow.
            var capacity = 1 << 16
            for piece in stride(from: 1, to: pieces, by: 2) {
                // Values written at the top level of a writer of their own come out joined by commas.
                var helper = JSONWriter(capacity: capacity)
                for element in elements[range(piece, of: elements.count)] { render(element, &helper) }
                capacity = max(capacity, helper.count)
                handOff.send(helper)
            }
        }
        for piece in stride(from: 0, to: pieces, by: 2) {
            for element in elements[range(piece, of: elements.count)] {
                render(element, &w)
                flushIfFull(&w)
            }
            if piece + 1 < pieces {
                var helper = handOff.receive()
                w.lendValues(of: &helper, to: sink)
            }
        }
    }

    private static func range(_ piece: Int, of count: Int) -> Range<Int> {
        piece * pieceSize..<min((piece + 1) * pieceSize, count)
    }
}
