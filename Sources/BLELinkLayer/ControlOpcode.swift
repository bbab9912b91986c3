import BLEBase

/// LL control PDU opcodes (Core v5.4 Vol 6 Part B §2.4.2, Table 2.18), those up to 0x29 that
/// Core v5.3 assigns: v5.4's 0x2A (LL_PERIODIC_SYNC_WR_IND) and later ones have no entry. Names and
/// CtrData layouts live in `ControlOpcode.table`, the one place the decoder and the size check read.
public struct ControlOpcode: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let connectionUpdateInd = Self(rawValue: 0x00)
    public static let channelMapInd = Self(rawValue: 0x01)
    public static let terminateInd = Self(rawValue: 0x02)
    public static let encReq = Self(rawValue: 0x03)
    public static let encRsp = Self(rawValue: 0x04)
    public static let startEncReq = Self(rawValue: 0x05)
    public static let startEncRsp = Self(rawValue: 0x06)
    public static let unknownRsp = Self(rawValue: 0x07)
    public static let featureReq = Self(rawValue: 0x08)
    public static let featureRsp = Self(rawValue: 0x09)
    public static let pauseEncReq = Self(rawValue: 0x0A)
    public static let pauseEncRsp = Self(rawValue: 0x0B)
    public static let versionInd = Self(rawValue: 0x0C)
    public static let rejectInd = Self(rawValue: 0x0D)
    public static let peripheralFeatureReq = Self(rawValue: 0x0E)
    public static let connectionParamReq = Self(rawValue: 0x0F)
    public static let connectionParamRsp = Self(rawValue: 0x10)
    public static let rejectExtInd = Self(rawValue: 0x11)
    public static let pingReq = Self(rawValue: 0x12)
    public static let pingRsp = Self(rawValue: 0x13)
    public static let lengthReq = Self(rawValue: 0x14)
    public static let lengthRsp = Self(rawValue: 0x15)
    public static let phyReq = Self(rawValue: 0x16)
    public static let phyRsp = Self(rawValue: 0x17)
    public static let phyUpdateInd = Self(rawValue: 0x18)
    public static let minUsedChannelsInd = Self(rawValue: 0x19)
    public static let cteReq = Self(rawValue: 0x1A)
    public static let cteRsp = Self(rawValue: 0x1B)
    public static let periodicSyncInd = Self(rawValue: 0x1C)
    public static let clockAccuracyReq = Self(rawValue: 0x1D)
    public static let clockAccuracyRsp = Self(rawValue: 0x1E)
    public static let cisReq = Self(rawValue: 0x1F)
    public static let cisRsp = Self(rawValue: 0x20)
    public static let cisInd = Self(rawValue: 0x21)
    public static let cisTerminateInd = Self(rawValue: 0x22)
    public static let powerControlReq = Self(rawValue: 0x23)
    public static let powerControlRsp = Self(rawValue: 0x24)
    public static let powerChangeInd = Self(rawValue: 0x25)
    public static let subrateReq = Self(rawValue: 0x26)
    public static let subrateInd = Self(rawValue: 0x27)
    public static let channelReportingInd = Self(rawValue: 0x28)
    public static let channelStatusInd = Self(rawValue: 0x29)

    /// `LL_…` name, or `Unknown (0xNN)`.
    public var name: String { Self.table[rawValue]?.name ?? "Unknown (\(Hex.code(rawValue)))" }

    /// The CtrData fields in wire order; nil for an opcode this decoder does not know.
    var layout: [ControlParameterSpec]? { Self.table[rawValue]?.layout }
    /// An opcode of Table 2.18 that the decoder has a layout for.
    public var isKnown: Bool { Self.table[rawValue] != nil }

    struct Entry: Sendable {
        var name: String
        var layout: [ControlParameterSpec]
    }

    private typealias P = ControlParameterSpec

    private static let connectionParams: [P] = [
        P("intervalMin", .u16, .slots1250us), P("intervalMax", .u16, .slots1250us), P("latency", .u16),
        P("timeout", .u16, .ms10), P("preferredPeriodicity", .u8, .slots1250us),
        P("referenceConnEventCount", .u16), P("offset0", .u16, .slots1250us), P("offset1", .u16, .slots1250us),
        P("offset2", .u16, .slots1250us), P("offset3", .u16, .slots1250us), P("offset4", .u16, .slots1250us),
        P("offset5", .u16, .slots1250us),
    ]
    private static let lengthParams: [P] = [
        P("maxRxOctets", .u16), P("maxRxTime", .u16, .us), P("maxTxOctets", .u16), P("maxTxTime", .u16, .us),
    ]

    static let table: [UInt8: Entry] = [
        0x00: Entry(name: "LL_CONNECTION_UPDATE_IND", layout: [
            P("winSize", .u8, .slots1250us), P("winOffset", .u16, .slots1250us), P("interval", .u16, .slots1250us),
            P("latency", .u16), P("timeout", .u16, .ms10), P("instant", .u16)]),
        0x01: Entry(name: "LL_CHANNEL_MAP_IND", layout: [P("channelMap", .bytes(5)), P("instant", .u16)]),
        0x02: Entry(name: "LL_TERMINATE_IND", layout: [P("errorCode", .errorCode)]),
        0x03: Entry(name: "LL_ENC_REQ", layout: [
            P("rand", .bytes(8)), P("ediv", .u16), P("skdC", .bytes(8)), P("ivC", .bytes(4))]),
        0x04: Entry(name: "LL_ENC_RSP", layout: [P("skdP", .bytes(8)), P("ivP", .bytes(4))]),
        0x05: Entry(name: "LL_START_ENC_REQ", layout: []),
        0x06: Entry(name: "LL_START_ENC_RSP", layout: []),
        0x07: Entry(name: "LL_UNKNOWN_RSP", layout: [P("unknownType", .opcode)]),
        0x08: Entry(name: "LL_FEATURE_REQ", layout: [P("featureSet", .bytes(8))]),
        0x09: Entry(name: "LL_FEATURE_RSP", layout: [P("featureSet", .bytes(8))]),
        0x0A: Entry(name: "LL_PAUSE_ENC_REQ", layout: []),
        0x0B: Entry(name: "LL_PAUSE_ENC_RSP", layout: []),
        0x0C: Entry(name: "LL_VERSION_IND", layout: [P("versNr", .version), P("compId", .u16), P("subVersNr", .u16)]),
        0x0D: Entry(name: "LL_REJECT_IND", layout: [P("errorCode", .errorCode)]),
        0x0E: Entry(name: "LL_PERIPHERAL_FEATURE_REQ", layout: [P("featureSet", .bytes(8))]),
        0x0F: Entry(name: "LL_CONNECTION_PARAM_REQ", layout: connectionParams),
        0x10: Entry(name: "LL_CONNECTION_PARAM_RSP", layout: connectionParams),
        0x11: Entry(name: "LL_REJECT_EXT_IND", layout: [P("rejectOpcode", .opcode), P("errorCode", .errorCode)]),
        0x12: Entry(name: "LL_PING_REQ", layout: []),
        0x13: Entry(name: "LL_PING_RSP", layout: []),
        0x14: Entry(name: "LL_LENGTH_REQ", layout: lengthParams),
        0x15: Entry(name: "LL_LENGTH_RSP", layout: lengthParams),
        0x16: Entry(name: "LL_PHY_REQ", layout: [P("txPhys", .phys), P("rxPhys", .phys)]),
        0x17: Entry(name: "LL_PHY_RSP", layout: [P("txPhys", .phys), P("rxPhys", .phys)]),
        0x18: Entry(name: "LL_PHY_UPDATE_IND", layout: [P("phyCToP", .phys), P("phyPToC", .phys), P("instant", .u16)]),
        0x19: Entry(name: "LL_MIN_USED_CHANNELS_IND", layout: [P("phys", .phys), P("minUsedChannels", .u8)]),
        0x1A: Entry(name: "LL_CTE_REQ", layout: [P("cteTypeReq", .u8)]),
        0x1B: Entry(name: "LL_CTE_RSP", layout: []),
        0x1C: Entry(name: "LL_PERIODIC_SYNC_IND", layout: [
            P("id", .u16), P("syncInfo", .bytes(18)), P("connEventCount", .u16), P("lastPaEventCounter", .u16),
            P("sidATypeSCA", .u8), P("phy", .phys), P("advA", .address), P("syncConnEventCount", .u16)]),
        0x1D: Entry(name: "LL_CLOCK_ACCURACY_REQ", layout: [P("sca", .u8)]),
        0x1E: Entry(name: "LL_CLOCK_ACCURACY_RSP", layout: [P("sca", .u8)]),
        0x1F: Entry(name: "LL_CIS_REQ", layout: [
            P("cigId", .u8), P("cisId", .u8), P("phyCToP", .phys), P("phyPToC", .phys),
            P("maxSduCToP", .u16), P("maxSduPToC", .u16), P("sduIntervalCToP", .u24, .us),
            P("sduIntervalPToC", .u24, .us), P("maxPduCToP", .u16), P("maxPduPToC", .u16), P("nse", .u8),
            P("subInterval", .u24, .us), P("bn", .u8), P("ftCToP", .u8), P("ftPToC", .u8),
            P("isoInterval", .u16, .slots1250us), P("cisOffsetMin", .u24, .us), P("cisOffsetMax", .u24, .us),
            P("connEventCount", .u16)]),
        0x20: Entry(name: "LL_CIS_RSP", layout: [
            P("cisOffsetMin", .u24, .us), P("cisOffsetMax", .u24, .us), P("connEventCount", .u16)]),
        0x21: Entry(name: "LL_CIS_IND", layout: [
            P("accessAddress", .u32), P("cisOffset", .u24, .us), P("cigSyncDelay", .u24, .us),
            P("cisSyncDelay", .u24, .us), P("connEventCount", .u16)]),
        0x22: Entry(name: "LL_CIS_TERMINATE_IND", layout: [P("cigId", .u8), P("cisId", .u8), P("errorCode", .errorCode)]),
        0x23: Entry(name: "LL_POWER_CONTROL_REQ", layout: [P("phy", .phys), P("delta", .i8), P("txPower", .i8)]),
        0x24: Entry(name: "LL_POWER_CONTROL_RSP", layout: [
            P("minMax", .u8), P("delta", .i8), P("txPower", .i8), P("apr", .u8)]),
        0x25: Entry(name: "LL_POWER_CHANGE_IND", layout: [
            P("phy", .phys), P("minMax", .u8), P("delta", .i8), P("txPower", .i8)]),
        0x26: Entry(name: "LL_SUBRATE_REQ", layout: [
            P("subrateFactorMin", .u16), P("subrateFactorMax", .u16), P("maxLatency", .u16),
            P("continuationNumber", .u16), P("timeout", .u16, .ms10)]),
        0x27: Entry(name: "LL_SUBRATE_IND", layout: [
            P("subrateFactor", .u16), P("subrateBaseEvent", .u16), P("latency", .u16),
            P("continuationNumber", .u16), P("timeout", .u16, .ms10)]),
        0x28: Entry(name: "LL_CHANNEL_REPORTING_IND", layout: [P("enable", .u8), P("minSpacing", .u8), P("maxDelay", .u8)]),
        0x29: Entry(name: "LL_CHANNEL_STATUS_IND", layout: [P("channelClassification", .bytes(10))]),
    ]
}

/// One CtrData field: its lowerCamel key (the spec's field name), wire shape and unit.
struct ControlParameterSpec: Sendable {
    enum Shape: Sendable {
        case u8, u16, u24, u32, i8, bytes(Int), errorCode, opcode, address, phys, version

        var width: Int {
            switch self {
            case .u8, .i8, .errorCode, .opcode, .phys, .version: return 1
            case .u16: return 2
            case .u24: return 3
            case .u32: return 4
            case .address: return 6
            case .bytes(let n): return n
            }
        }
    }

    var name: String
    var shape: Shape
    var unit: ControlParameter.Unit?

    init(_ name: String, _ shape: Shape, _ unit: ControlParameter.Unit? = nil) {
        self.name = name
        self.shape = shape
        self.unit = unit
    }
}
