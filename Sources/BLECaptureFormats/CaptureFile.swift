#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BLEBase

/// Opens captures of every supported format, detected from their content, never their name.
public enum CaptureFile {
    /// Opens `path` (`"-"`: standard input) for streaming. gzip input (any number of members) is
    /// inflated on the fly and the format inside it detected the same way.
    public static func open(_ path: String) throws(CaptureError) -> any RecordReader {
        let name = path == "-" ? "stdin" : path
        let source: any ByteSource = path == "-"
            ? FileDescriptorSource(descriptor: STDIN_FILENO, name: name, ownsDescriptor: false)
            : try FileDescriptorSource(opening: path)
        var input = BufferedInput(source)
        var signature = try ContainerSignature.detect(input, file: name, compressed: false)
        var compressed = false
        if signature == .gzip {
            input = BufferedInput(try GzipSource(upstream: input, name: name))
            compressed = true
            signature = try ContainerSignature.detect(input, file: name, compressed: true)
        }
        switch signature {
        case .btsnoop:
            return try BtsnoopReader(input: input, path: name, compressed: compressed)
        case .pcap(let bigEndian):
            return try PcapFile.open(path: name, input: input, container: .pcap, bigEndian: bigEndian,
                                     compressed: compressed, spool: compressed || path == "-")
        case .pcapng:
            return try PcapFile.open(path: name, input: input, container: .pcapng, bigEndian: false,
                                     compressed: compressed, spool: compressed || path == "-")
        case .packetLogger(let bigEndian):
            return PacketLoggerReader(input: input, path: name, bigEndian: bigEndian, compressed: compressed)
        case .zip:
            return try AndroidBugreport.open(zip: input, path: name, isFile: path != "-" && !compressed,
                                             compressed: compressed)
        case .text(let head):
            if let reader = try AndroidBugreport.open(text: input, path: name, compressed: compressed) { return reader }
            var error = ContainerSignature.notACapture(head, file: name)
            error.otherContent = compressed ? "gzip-compressed text" : "text"
            throw error
        case .gzip:
            throw CaptureError(file: name, byteOffset: 0, message: "not a capture file (gzip inside gzip)")
        }
    }
}

/// What a file's first bytes say it is.
enum ContainerSignature: Equatable {
    case gzip
    case btsnoop
    case pcap(bigEndian: Bool)
    case pcapng
    case packetLogger(bigEndian: Bool)
    /// A zip archive (an Android bug report zip, when it holds one).
    case zip
    /// Text (no NUL byte in the detection window), perhaps an Android bug report; `head` is its
    /// first bytes, for the error when it is not.
    case text(head: [UInt8])

    /// Magic numbers, in the order they are tried, with the size of the header each starts.
    private static let magics: [(bytes: [UInt8], signature: ContainerSignature, header: (name: String, size: Int))] = [
        (BtsnoopFileHeader.magic, .btsnoop, ("btsnoop file header", BtsnoopFileHeader.size)),
        ([0xD4, 0xC3, 0xB2, 0xA1], .pcap(bigEndian: false), ("pcap file header", 24)),
        ([0xA1, 0xB2, 0xC3, 0xD4], .pcap(bigEndian: true), ("pcap file header", 24)),
        ([0x4D, 0x3C, 0xB2, 0xA1], .pcap(bigEndian: false), ("pcap file header", 24)),
        ([0xA1, 0xB2, 0x3C, 0x4D], .pcap(bigEndian: true), ("pcap file header", 24)),
        ([0x0A, 0x0D, 0x0D, 0x0A], .pcapng, ("pcapng section header block", 28)),
        ([0x1F, 0x8B], .gzip, ("gzip header", 10)),
        ([0x50, 0x4B, 0x03, 0x04], .zip, ("zip local file header", 30)),
        ([0x50, 0x4B, 0x05, 0x06], .zip, ("zip end of central directory record", 22)),
    ]

    /// How far detection looks: enough for PacketLogger's first records.
    static let window = 64 * 1024

    static func detect(_ input: BufferedInput, file: String, compressed: Bool) throws(CaptureError) -> ContainerSignature {
        var reader = input.peek(window)
        if reader.isAtEnd {
            if let error = input.sourceError { throw error }
            throw CaptureError(file: file, message: compressed ? "empty capture: the gzip data decompresses to nothing"
                                                               : "empty file: not a capture")
        }
        let available = reader.remaining
        let head = (try? reader.readBytes(min(available, 16), "signature")) ?? []
        for magic in magics {
            // A file shorter than the header that matches the magic as far as it goes.
            let matched = head.starts(with: magic.bytes) || (head.count < magic.bytes.count && magic.bytes.starts(with: head))
            guard matched else { continue }
            guard available >= magic.header.size else {
                throw CaptureError(file: file, byteOffset: 0,
                                   message: "file ends inside the \(magic.header.name): \(available) of \(magic.header.size) bytes")
            }
            return magic.signature
        }
        if let bigEndian = PacketLoggerDetection.byteOrder(of: input.peek(window)) {
            return .packetLogger(bigEndian: bigEndian)
        }
        if let error = input.sourceError { throw error }
        if !input.peek(window).unreadBytes.contains(0) { return .text(head: head) }
        throw notACapture(head, file: file)
    }

    static func notACapture(_ head: [UInt8], file: String) -> CaptureError {
        CaptureError(file: file, byteOffset: 0, message: "not a capture file (\(describe(head)))")
    }

    /// `starts with 2d2d2d2d… ("----…"); no btsnoop, pcap, pcapng, gzip or PacketLogger signature`.
    private static func describe(_ head: [UInt8]) -> String {
        let shown = head.prefix(8)
        let text = String(decoding: shown.map { (0x20...0x7E).contains($0) ? $0 : 0x2E }, as: UTF8.self)
        return "starts with \(Hex.string(shown)) \"\(text)\"; no btsnoop, pcap, pcapng, gzip or PacketLogger signature"
    }
}
