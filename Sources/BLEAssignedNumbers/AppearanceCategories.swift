extension AssignedNumbers {
    /// Appearance categories (value >> 6). Source: Bluetooth SIG Assigned Numbers §2.6,
    /// `bitbucket.org/bluetooth-SIG/public` `assigned_numbers/core/appearance_values.yaml`.
    static let appearanceCategoryNames: [UInt16: String] = [
        0x000: "Unknown",
        0x001: "Phone",
        0x002: "Computer",
        0x003: "Watch",
        0x004: "Clock",
        0x005: "Display",
        0x006: "Remote Control",
        0x007: "Eye-glasses",
        0x008: "Tag",
        0x009: "Keyring",
        0x00A: "Media Player",
        0x00B: "Barcode Scanner",
        0x00C: "Thermometer",
        0x00D: "Heart Rate Sensor",
        0x00E: "Blood Pressure",
        0x00F: "Human Interface Device",
        0x010: "Glucose Meter",
        0x011: "Running Walking Sensor",
        0x012: "Cycling",
        0x031: "Pulse Oximeter",
        0x032: "Weight Scale",
        0x051: "Outdoor Sports Activity",
    ]
}
