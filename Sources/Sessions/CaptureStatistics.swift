import ATT
import BLEBase
import CaptureFormats
import HCI
import PacketDecoding

/// Counts over the whole capture.
package struct CaptureStatistics: Sendable {
    package var records = 0
    package var hciCommands = 0
    package var hciEvents = 0
    package var aclPackets = 0
    package var airPackets = 0
    package var badCRCPackets = 0
    /// Air packets attributed to no advertiser or link: bad CRCs (`badCRCPackets`) and radio
    /// noise (docs/air-captures.md, "Radio noise").
    package var undecodableRadioPackets = 0
    package var attPDUs: [UInt8: Int] = [:]
    /// ATT PDUs the capturing tool cut (btsnooz, bug-report summaries), by the opcode still
    /// visible; `hiddenATTPDUs` counts them all, opcode visible or not.
    package var cutATTPDUs: [UInt8: Int] = [:]
    package var hiddenATTPDUs = 0
    package var truncatedRecords = 0
    package var firstTimeUs: Int64?
    package var lastTimeUs: Int64?
    package var issues: [PacketIssue.Kind: Int] = [:]
    /// Every failure by kind, including those past the listing cap.
    package var failuresByKind: [FailureKind: Int] = [:]
    /// Every failure, including those past the listing cap.
    package var failures: Int { failuresByKind.values.reduce(0, +) }
    /// Every notice (warning or info) by kind, each occurrence counted.
    package var noticesByKind: [FailureKind: Int] = [:]
    /// Records with a time earlier than a record before them, the first of them, and the
    /// largest step back.
    package var outOfOrderRecords = 0
    package var firstOutOfOrderRecord: Int?
    package var largestStepBackUs: Int64 = 0
    /// The most connections up at the same time.
    package var maxConcurrentConnections = 0
    /// SCO and ISO records (audio: counted, not analysed), and records that are neither HCI
    /// nor air packets (notes, control records, types no decoder reads).
    package var scoPackets = 0
    package var isoPackets = 0
    package var otherRecords = 0
    /// Records that did not decode at the HCI or link layer (counted in `issues` by kind too).
    package var undecodableRecords = 0
    /// L2CAP PDUs on channels not analysed, summed over every connection (`Connection.channels`),
    /// and PDUs on links no connection was made for.
    package var channelsNotAnalysed: [ChannelUse] = []
    package var l2capWithoutConnection = 0
}
