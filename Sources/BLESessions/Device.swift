import BLEATT
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEPacketDecoding

/// A device: every address seen for it (merged by identity), what it advertised, and its links.
public struct Device: Sendable {
    public var id: DeviceID
    public var addresses: [DeviceAddress]
    /// What tied several addresses together, or the identity a profile extracted.
    public var identity: DeviceIdentity?
    public var names: [String]
    public var companyIDs: [UInt16]
    public var serviceUUIDs: [BluetoothUUID]
    public var txPower: Int8?
    public var advertisements: Int
    public var firstSeenUs: Int64?
    public var lastSeenUs: Int64?
    public var connectionIDs: [ConnectionID]
    public var gatt: [GATTAttribute]
}

/// One address of a device and how it was seen.
public struct DeviceAddress: Sendable {
    public var address: BluetoothAddress
    public var type: AddressKind
    public var advertisements: Int
    public var scanResponses: Int
    public var rssi: RSSIStatistics?
    public var firstSeenUs: Int64?
    public var lastSeenUs: Int64?
    /// Advertising in bursts: runs of advertisements less than `AdvertisingBursts.gapUs` apart.
    public var bursts: [AdvertisingBurst]
}

/// A run of advertisements from one address with no gap over `AdvertisingBursts.gapUs`.
public struct AdvertisingBurst: Sendable, Equatable {
    public var startUs: Int64
    public var endUs: Int64
    public var count: Int
    public var rssiMin: Int?
    public var rssiMax: Int?
}

/// The address type as the report names it: public, or random with its sub-type
/// (Core v5.4 Vol 6 Part B §1.3).
public enum AddressKind: String, Sendable {
    case publicAddress = "public"
    case randomStatic = "random-static"
    case randomResolvable = "random-resolvable"
    case randomNonResolvable = "random-non-resolvable"
    case publicIdentity = "public-identity"
    case randomIdentity = "random-identity"
    case unknown

    public init(_ type: AddressType, _ address: BluetoothAddress) {
        switch type {
        case .publicDevice: self = .publicAddress
        case .publicIdentity: self = .publicIdentity
        case .randomIdentity: self = .randomIdentity
        case .randomDevice:
            switch address.randomSubType {
            case .staticAddress: self = .randomStatic
            case .resolvablePrivate: self = .randomResolvable
            case .nonResolvablePrivate: self = .randomNonResolvable
            case .reserved: self = .unknown
            }
        default: self = .unknown
        }
    }
}

/// RSSI over a device's advertisements: min, median, max in dBm.
public struct RSSIStatistics: Sendable, Equatable {
    public var min: Int
    public var median: Int
    public var max: Int
    public var count: Int
}

public struct DeviceIdentity: Sendable, Equatable, Hashable {
    public var value: String
    /// Where it came from: `smp-identity-address`, `enhanced-connection-complete`, `profile NAME: …`.
    public var source: String

    public init(value: String, source: String) {
        self.value = value
        self.source = source
    }
}
