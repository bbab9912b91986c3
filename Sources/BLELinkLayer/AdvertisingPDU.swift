import BLEBase

/// Advertising physical channel PDU types (Core v5.4 Vol 6 Part B §2.3, Table 2.3). Types 3, 5,
/// 7 and 8 take AUX_ names on secondary channels (index < 37).
public struct AdvertisingPDUType: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let advInd = Self(rawValue: 0)
    public static let advDirectInd = Self(rawValue: 1)
    public static let advNonconnInd = Self(rawValue: 2)
    public static let scanReq = Self(rawValue: 3)
    public static let scanRsp = Self(rawValue: 4)
    public static let connectInd = Self(rawValue: 5)
    public static let advScanInd = Self(rawValue: 6)
    public static let advExtInd = Self(rawValue: 7)
    public static let auxConnectRsp = Self(rawValue: 8)

    public var name: String { name(secondaryChannel: false) }

    public func name(secondaryChannel: Bool) -> String {
        switch rawValue {
        case 0: return "ADV_IND"
        case 1: return "ADV_DIRECT_IND"
        case 2: return "ADV_NONCONN_IND"
        case 3: return secondaryChannel ? "AUX_SCAN_REQ" : "SCAN_REQ"
        case 4: return "SCAN_RSP"
        case 5: return secondaryChannel ? "AUX_CONNECT_REQ" : "CONNECT_IND"
        case 6: return "ADV_SCAN_IND"
        case 7: return secondaryChannel ? "AUX_ADV_IND" : "ADV_EXT_IND"
        case 8: return "AUX_CONNECT_RSP"
        default: return "Unknown (\(Hex.code(rawValue)))"
        }
    }
}

/// The 16-bit advertising PDU header (Core v5.4 Vol 6 Part B §2.3, Figure 2.5):
///
/// ```
/// bit 0      4       5      6       7        8                15
/// +----------+-------+------+-------+--------+-----------------+
/// | PDU type | RFU   | ChSel| TxAdd | RxAdd  | Length (octets) |
/// +----------+-------+------+-------+--------+-----------------+
/// ```
public struct AdvertisingHeader: Sendable, Equatable {
    public var pduType: AdvertisingPDUType
    public var channelSelection: Bool
    public var txAdd: Bool
    public var rxAdd: Bool
    public var length: UInt8

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        let first = try reader.readUInt8("advertising header")
        pduType = AdvertisingPDUType(rawValue: first & 0x0F)
        channelSelection = first & 0x20 != 0
        txAdd = first & 0x40 != 0
        rxAdd = first & 0x80 != 0
        length = try reader.readUInt8("advertising length")
    }

    public var txAddressType: AddressType { txAdd ? .randomDevice : .publicDevice }
    public var rxAddressType: AddressType { rxAdd ? .randomDevice : .publicDevice }
}

/// What an advertising PDU carries, by type (Core v5.4 Vol 6 Part B §2.3.1–§2.3.4).
public enum AdvertisingPayload: Sendable, Equatable {
    /// ADV_IND, ADV_NONCONN_IND, ADV_SCAN_IND (AdvData) and SCAN_RSP (ScanRspData):
    /// AdvA (6) | data (0–31).
    case advertising(advA: BluetoothAddress, data: [UInt8])
    /// ADV_DIRECT_IND: AdvA (6) | TargetA (6).
    case directed(advA: BluetoothAddress, targetA: BluetoothAddress)
    /// SCAN_REQ / AUX_SCAN_REQ: ScanA (6) | AdvA (6).
    case scanRequest(scanA: BluetoothAddress, advA: BluetoothAddress)
    /// CONNECT_IND / AUX_CONNECT_REQ.
    case connect(ConnectIndication)
    /// ADV_EXT_IND, AUX_* and AUX_CONNECT_RSP: the common extended advertising payload.
    case extended(ExtendedAdvertisingPayload)
    /// A reserved PDU type: the payload kept raw.
    case reserved([UInt8])
}

/// An advertising physical channel PDU (Core v5.4 Vol 6 Part B §2.3): header, then a payload
/// whose layout the PDU type selects.
public struct AdvertisingPDU: Sendable, Equatable {
    public var header: AdvertisingHeader
    public var payload: AdvertisingPayload

    /// Reads the header and exactly `Length` payload bytes.
    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        header = try AdvertisingHeader(parsing: &reader)
        var body = try reader.slice(byteCount: Int(header.length), "advertising payload")
        switch header.pduType {
        case .advInd, .advNonconnInd, .advScanInd, .scanRsp:
            let advA = try BluetoothAddress(parsing: &body)
            payload = .advertising(advA: advA, data: body.readRemainingBytes())
        case .advDirectInd:
            let advA = try BluetoothAddress(parsing: &body)
            payload = .directed(advA: advA, targetA: try BluetoothAddress(parsing: &body))
            try body.expectEnd("ADV_DIRECT_IND")
        case .scanReq:
            let scanA = try BluetoothAddress(parsing: &body)
            payload = .scanRequest(scanA: scanA, advA: try BluetoothAddress(parsing: &body))
            try body.expectEnd("SCAN_REQ")
        case .connectInd:
            payload = .connect(try ConnectIndication(parsing: &body))
            try body.expectEnd("CONNECT_IND")
        case .advExtInd, .auxConnectRsp:
            payload = .extended(try ExtendedAdvertisingPayload(parsing: &body))
        default:
            payload = .reserved(body.readRemainingBytes())
        }
    }

    /// The advertiser's address, when the PDU carries one.
    public var advertiserAddress: BluetoothAddress? {
        switch payload {
        case .advertising(let advA, _), .directed(let advA, _), .scanRequest(_, let advA): return advA
        case .connect(let connect): return connect.advA
        case .extended(let ext): return ext.advA
        case .reserved: return nil
        }
    }

    /// AdvData / ScanRspData (raw AD structures) for the shared AD decoder.
    public var advertisingData: [UInt8]? {
        switch payload {
        case .advertising(_, let data): return data
        case .extended(let ext): return ext.advData.isEmpty ? nil : ext.advData
        default: return nil
        }
    }
}
