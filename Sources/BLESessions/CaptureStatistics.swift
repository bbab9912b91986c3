import BLEATT
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEPacketDecoding

/// Counts over the whole capture.
public struct CaptureStatistics: Sendable {
    public var records = 0
    public var hciCommands = 0
    public var hciEvents = 0
    public var aclPackets = 0
    public var airPackets = 0
    public var badCRCPackets = 0
    /// Air packets attributed to no advertiser or link: bad CRCs (`badCRCPackets`) and radio
    /// noise (docs/air-captures.md, "Radio noise").
    public var undecodableRadioPackets = 0
    public var attPDUs: [UInt8: Int] = [:]
    /// ATT PDUs the capturing tool cut (btsnooz, bug-report summaries), by the opcode still
    /// visible; `hiddenATTPDUs` counts them all, opcode visible or not.
    public var cutATTPDUs: [UInt8: Int] = [:]
    public var hiddenATTPDUs = 0
    public var truncatedRecords = 0
    public var firstTimeUs: Int64?
    public var lastTimeUs: Int64?
    public var issues: [PacketIssue.Kind: Int] = [:]
    /// Every failure by kind, including those past the listing cap.
    public var failuresByKind: [FailureKind: Int] = [:]
    /// Every failure, including those past the listing cap.
    public var failures: Int { failuresByKind.values.reduce(0, +) }
    /// Every notice (warning or info) by kind, each occurrence counted.
    public var noticesByKind: [FailureKind: Int] = [:]
    /// Records with a time earlier than a record before them, the first of them, and the
    /// largest step back.
    public var outOfOrderRecords = 0
    public var firstOutOfOrderRecord: Int?
    public var largestStepBackUs: Int64 = 0
    /// The most connections up at the same time.
    public var maxConcurrentConnections = 0
    /// SCO and ISO records (audio: counted, not analysed), and records that are neither HCI
    /// nor air packets (notes, control records, types no decoder reads).
    public var scoPackets = 0
    public var isoPackets = 0
    public var otherRecords = 0
    /// Records that did not decode at the HCI or link layer (counted in `issues` by kind too).
    public var undecodableRecords = 0
    /// L2CAP PDUs on channels not analysed, summed over every connection (`Connection.channels`),
    /// and PDUs on links no connection was made for.
    public var channelsNotAnalysed: [ChannelUse] = []
    public var l2capWithoutConnection = 0
    /// Other packets counted but not decoded (vendor events, unknown LL Control opcodes, BTstack
    /// daemon traffic), by kind and code over the whole capture; those on a link are also in
    /// their connection's `packetsNotAnalysed`.
    public var packetsNotAnalysed: [PacketsNotAnalysed] = []
}
