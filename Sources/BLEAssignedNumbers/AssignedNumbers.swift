import BLEBase

/// Names the Bluetooth SIG assigns: GATT UUIDs, company identifiers, appearance categories.
/// The tables are data in the neighbouring files, each citing its source; lookups are
/// dictionary reads.
public enum AssignedNumbers {
    /// The SIG name of a 16-bit-alias UUID (service, characteristic, descriptor or declaration);
    /// nil for 128-bit vendor UUIDs and unassigned values.
    public static func name(for uuid: BluetoothUUID) -> String? {
        guard let short = uuid.uint16 else { return nil }
        return uuid16Names[short]
    }

    /// The registered name of a company identifier (manufacturer data, LMP/LL version).
    public static func companyName(_ id: UInt16) -> String? { companyNames[id] }

    /// The name of the category of an Appearance value (bits 15–6 of it).
    public static func appearanceCategoryName(_ appearance: UInt16) -> String? {
        appearanceCategoryNames[appearance >> 6]
    }

    /// Services, characteristics, declarations and descriptors share one 16-bit space.
    static let uuid16Names: [UInt16: String] = serviceNames
        .merging(characteristicNames) { first, _ in first }
        .merging(attributeTypeNames) { first, _ in first }
}
