/// The container formats bledecode reads, detected from content, never from the file name.
public enum ContainerFormat: String, Sendable, Codable {
    case btsnoop
    case pcap
    case pcapng
    case packetLogger = "pklg"
    case androidBugreport = "android-bugreport"
}

/// Facts about an opened capture.
public struct CaptureInfo: Sendable {
    public var path: String
    public var container: ContainerFormat
    /// Human name of the link layer: `btsnoop datalink 1002 (H4)`, `pcap link type 201 (…)`,
    /// `PacketLogger big-endian (v1)`.
    public var linkTypeDescription: String
    /// btsnoop datalink or pcap link type number; nil for PacketLogger.
    public var linkType: UInt32?
    /// True when the file was gzip-compressed.
    public var compressed: Bool

    public init(path: String, container: ContainerFormat, linkTypeDescription: String, linkType: UInt32?, compressed: Bool) {
        self.path = path
        self.container = container
        self.linkTypeDescription = linkTypeDescription
        self.linkType = linkType
        self.compressed = compressed
    }
}

/// A record source: the readers of every container conform; the pipeline pulls one record at a
/// time, so nothing holds the whole capture in memory.
public protocol RecordReader: AnyObject {
    var info: CaptureInfo { get }
    /// The next record, or nil at the end of the capture (clean or after damage: see
    /// `diagnostics`).
    func next() -> CaptureRecord?
    /// Problems found so far, in file order. Bounded: after a cap, only counted.
    var diagnostics: [CaptureDiagnostic] { get }
}

/// A reader that can also make records a batch at a time, their bytes in one array of the
/// batch's own: a batch can then go to another thread as it is, and the records cost none of
/// the per-record work of `next()` in between. A reader whose `next()` gives records lying in
/// its input buffer, which many records then share (`CaptureRecord.storage`), is one of these:
/// a consumer on another thread takes batches (`Reports.PrefetchingReader` does).
public protocol RecordBatchReader: RecordReader {
    /// Up to `count` next records (at least one unless the capture has ended), in a list whose
    /// last element is the first record, so that a consumer takes each with `popLast`. Mixes
    /// freely with `next()`.
    func nextBatch(upTo count: Int) -> [CaptureRecord]
}

extension RecordBatchReader {
    /// The next record as a batch of its own, its payload copied out of the input buffer: what a
    /// reader hands over for a record its batches leave to `next()` (damage, text to rebuild).
    func nextAlone() -> [CaptureRecord] {
        guard var record = next() else { return [] }
        record.copyPayloadOut()
        return [record]
    }
}
