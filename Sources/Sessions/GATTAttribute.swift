import ATT
import BLEBase
import CaptureFormats
import HCI
import PacketDecoding

/// One attribute of a device's GATT database, rebuilt from discovery.
package struct GATTAttribute: Sendable, Equatable {
    package enum Kind: String, Sendable { case service, secondaryService = "secondary-service", include, characteristic, descriptor }
    package var handle: UInt16
    package var uuid: BluetoothUUID
    package var kind: Kind
    /// Characteristic properties (`read`, `notify`, …), for characteristics.
    package var properties: [String]
    /// The declaration handle of a characteristic, whose value is at `handle`.
    package var declarationHandle: UInt16?
    package var endHandle: UInt16?
}
