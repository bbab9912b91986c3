import ATT
import BLEBase
import CaptureFormats
import HCI
import PacketDecoding

/// A device: every address seen for it (merged by identity), what it advertised, and its links.
package struct Device: Sendable {
    package var id: String
    package var addresses: [DeviceAddress]
    /// What tied several addresses together, or the identity a profile extracted.
    package var identity: DeviceIdentity?
    package var names: [String]
    package var companyIDs: [UInt16]
    package var serviceUUIDs: [BluetoothUUID]
    package var txPower: Int8?
    package var advertisements: Int
    package var firstSeenUs: Int64?
    package var lastSeenUs: Int64?
    package var connectionIDs: [String]
    package var gatt: [GATTAttribute]
}

/// One address of a device and how it was seen.
package struct DeviceAddress: Sendable {
    package var address: BluetoothAddress
    package var type: AddressKind
    package var advertisements: Int
    package var scanResponses: Int
    package var rssi: RSSIStatistics?
    package var firstSeenUs: Int64?
    package var lastSeenUs: Int64?
    /// Advertising in bursts: runs of advertisements less than `AdvertisingBursts.gapUs` apart.
    package var bursts: [AdvertisingBurst]
}

/// A run of advertisements from one address with no gap over `AdvertisingBursts.gapUs`.
package struct AdvertisingBurst: Sendable, Equatable {
    package var startUs: Int64
    package var endUs: Int64
    package var count: Int
    package var rssiMin: Int?
    package var rssiMax: Int?
}

/// The address type as the report names it: public, or random with its sub-type
/// (Core v5.4 Vol 6 Part B §1.3).
package enum AddressKind: String, Sendable {
    case publicAddress = "public"
    case randomStatic = "random-static"
    case randomResolvable = "random-resolvable"
    case randomNonResolvable = "random-non-resolvable"
    case publicIdentity = "public-identity"
    case randomIdentity = "random-identity"
    case unknown

    package init(_ type: AddressType, _ address: BluetoothAddress) {
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
package struct RSSIStatistics: Sendable, Equatable {
    package var min: Int
    package var median: Int
    package var max: Int
    package var count: Int
}

package struct DeviceIdentity: Sendable, Equatable, Hashable {
    package var value: String
    /// Where it came from: `smp-identity-address`, `enhanced-connection-complete`, `profile NAME: …`.
    package var source: String

    package init(value: String, source: String) {
        self.value = value
        self.source = source
    }
}
