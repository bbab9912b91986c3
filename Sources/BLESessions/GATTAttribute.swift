import BLEATT
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEPacketDecoding

/// One attribute of a device's GATT database, rebuilt from discovery.
public struct GATTAttribute: Sendable, Equatable {
    public enum Kind: String, Sendable { case service, secondaryService = "secondary-service", include, characteristic, descriptor }
    public var handle: UInt16
    public var uuid: BluetoothUUID
    public var kind: Kind
    /// Characteristic properties (`read`, `notify`, …), for characteristics.
    public var properties: [String]
    /// The declaration handle of a characteristic, whose value is at `handle`.
    public var declarationHandle: UInt16?
    public var endHandle: UInt16?
}
