import BLEBase
import Testing

/// Checks that every prefix `0..<bytes.count` of a fixed layout fails with the exact truncation
/// error of the field the prefix cuts: that field's name, start offset, width and bytes left.
func expectEveryTruncation(_ bytes: [UInt8], layer: Layer, layout: [(field: String, width: Int)],
                           sourceLocation: SourceLocation = #_sourceLocation,
                           _ parse: (inout ByteReader) throws(DecodeError) -> Void) {
    #expect(layout.reduce(0) { $0 + $1.width } == bytes.count, "layout covers the bytes", sourceLocation: sourceLocation)
    for length in 0..<bytes.count {
        var start = 0
        var expected: DecodeError?
        for item in layout {
            if length < start + item.width {
                expected = .truncated(layer: layer, field: item.field, at: start, needed: item.width,
                                      available: length - start)
                break
            }
            start += item.width
        }
        guard let expected else {
            Issue.record("layout shorter than prefix \(length)", sourceLocation: sourceLocation)
            return
        }
        var reader = ByteReader(Array(bytes[0..<length]), layer: layer)
        #expect(throws: expected, "prefix \(length)", sourceLocation: sourceLocation) { try parse(&reader) }
    }
}

/// Parses `bytes` completely or records the error.
func parsed<T>(_ bytes: [UInt8], layer: Layer = .hci,
               _ parse: (inout ByteReader) throws(DecodeError) -> T) throws -> T {
    var reader = ByteReader(bytes, layer: layer)
    return try parse(&reader)
}
