/// Named CRCs from Greg Cook's "Catalogue of parametrised CRC algorithms" (reveng, crc-catalogue):
/// every CRC-8 entry and the CRC-16 entries, each with its check value (the CRC of the ASCII
/// bytes "123456789") so that the table is testable. Names match case-insensitively; aliases
/// are the catalogue's own.
public struct CRCCatalogueEntry: Sendable, Equatable {
    public var name: String
    public var aliases: [String]
    public var parameters: CRCParameters
    public var check: UInt64
}

public enum CRCCatalogue {
    private static func entry(_ name: String, _ width: Int, poly: UInt64, initial: UInt64, reflected: Bool,
                              xorOut: UInt64, check: UInt64, aliases: [String] = []) -> CRCCatalogueEntry {
        CRCCatalogueEntry(name: name, aliases: aliases,
                          parameters: CRCParameters(width: width, poly: poly, initial: initial, reflectIn: reflected,
                                                    reflectOut: reflected, xorOut: xorOut),
                          check: check)
    }

    /// Every entry, CRC-8 first, in catalogue order.
    public static let entries: [CRCCatalogueEntry] = [
        entry("CRC-8/AUTOSAR", 8, poly: 0x2F, initial: 0xFF, reflected: false, xorOut: 0xFF, check: 0xDF),
        entry("CRC-8/BLUETOOTH", 8, poly: 0xA7, initial: 0x00, reflected: true, xorOut: 0x00, check: 0x26),
        entry("CRC-8/CDMA2000", 8, poly: 0x9B, initial: 0xFF, reflected: false, xorOut: 0x00, check: 0xDA),
        entry("CRC-8/DARC", 8, poly: 0x39, initial: 0x00, reflected: true, xorOut: 0x00, check: 0x15),
        entry("CRC-8/DVB-S2", 8, poly: 0xD5, initial: 0x00, reflected: false, xorOut: 0x00, check: 0xBC),
        entry("CRC-8/GSM-A", 8, poly: 0x1D, initial: 0x00, reflected: false, xorOut: 0x00, check: 0x37),
        entry("CRC-8/GSM-B", 8, poly: 0x49, initial: 0x00, reflected: false, xorOut: 0xFF, check: 0x94),
        entry("CRC-8/HITAG", 8, poly: 0x1D, initial: 0xFF, reflected: false, xorOut: 0x00, check: 0xB4),
        entry("CRC-8/I-432-1", 8, poly: 0x07, initial: 0x00, reflected: false, xorOut: 0x55, check: 0xA1,
              aliases: ["CRC-8/ITU"]),
        entry("CRC-8/I-CODE", 8, poly: 0x1D, initial: 0xFD, reflected: false, xorOut: 0x00, check: 0x7E),
        entry("CRC-8/LTE", 8, poly: 0x9B, initial: 0x00, reflected: false, xorOut: 0x00, check: 0xEA),
        entry("CRC-8/MAXIM-DOW", 8, poly: 0x31, initial: 0x00, reflected: true, xorOut: 0x00, check: 0xA1,
              aliases: ["CRC-8/MAXIM", "DOW-CRC"]),
        entry("CRC-8/MIFARE-MAD", 8, poly: 0x1D, initial: 0xC7, reflected: false, xorOut: 0x00, check: 0x99),
        entry("CRC-8/NRSC-5", 8, poly: 0x31, initial: 0xFF, reflected: false, xorOut: 0x00, check: 0xF7),
        entry("CRC-8/OPENSAFETY", 8, poly: 0x2F, initial: 0x00, reflected: false, xorOut: 0x00, check: 0x3E),
        entry("CRC-8/ROHC", 8, poly: 0x07, initial: 0xFF, reflected: true, xorOut: 0x00, check: 0xD0),
        entry("CRC-8/SAE-J1850", 8, poly: 0x1D, initial: 0xFF, reflected: false, xorOut: 0xFF, check: 0x4B),
        entry("CRC-8/SMBUS", 8, poly: 0x07, initial: 0x00, reflected: false, xorOut: 0x00, check: 0xF4,
              aliases: ["CRC-8"]),
        entry("CRC-8/TECH-3250", 8, poly: 0x1D, initial: 0xFF, reflected: true, xorOut: 0x00, check: 0x97,
              aliases: ["CRC-8/AES", "CRC-8/EBU"]),
        entry("CRC-8/WCDMA", 8, poly: 0x9B, initial: 0x00, reflected: true, xorOut: 0x00, check: 0x25),
        entry("CRC-16/ARC", 16, poly: 0x8005, initial: 0x0000, reflected: true, xorOut: 0x0000, check: 0xBB3D,
              aliases: ["ARC", "CRC-16", "CRC-16/LHA", "CRC-IBM"]),
        entry("CRC-16/CDMA2000", 16, poly: 0xC867, initial: 0xFFFF, reflected: false, xorOut: 0x0000, check: 0x4C06),
        entry("CRC-16/CMS", 16, poly: 0x8005, initial: 0xFFFF, reflected: false, xorOut: 0x0000, check: 0xAEE7),
        entry("CRC-16/DDS-110", 16, poly: 0x8005, initial: 0x800D, reflected: false, xorOut: 0x0000, check: 0x9ECF),
        entry("CRC-16/DECT-R", 16, poly: 0x0589, initial: 0x0000, reflected: false, xorOut: 0x0001, check: 0x007E),
        entry("CRC-16/DECT-X", 16, poly: 0x0589, initial: 0x0000, reflected: false, xorOut: 0x0000, check: 0x007F),
        entry("CRC-16/DNP", 16, poly: 0x3D65, initial: 0x0000, reflected: true, xorOut: 0xFFFF, check: 0xEA82),
        entry("CRC-16/EN-13757", 16, poly: 0x3D65, initial: 0x0000, reflected: false, xorOut: 0xFFFF, check: 0xC2B7),
        entry("CRC-16/GENIBUS", 16, poly: 0x1021, initial: 0xFFFF, reflected: false, xorOut: 0xFFFF, check: 0xD64E,
              aliases: ["CRC-16/DARC", "CRC-16/EPC", "CRC-16/I-CODE"]),
        entry("CRC-16/GSM", 16, poly: 0x1021, initial: 0x0000, reflected: false, xorOut: 0xFFFF, check: 0xCE3C),
        entry("CRC-16/IBM-3740", 16, poly: 0x1021, initial: 0xFFFF, reflected: false, xorOut: 0x0000, check: 0x29B1,
              aliases: ["CRC-16/AUTOSAR", "CRC-16/CCITT-FALSE"]),
        entry("CRC-16/IBM-SDLC", 16, poly: 0x1021, initial: 0xFFFF, reflected: true, xorOut: 0xFFFF, check: 0x906E,
              aliases: ["CRC-16/ISO-HDLC", "CRC-16/X-25", "CRC-B", "X-25"]),
        entry("CRC-16/ISO-IEC-14443-3-A", 16, poly: 0x1021, initial: 0xC6C6, reflected: true, xorOut: 0x0000,
              check: 0xBF05, aliases: ["CRC-A"]),
        entry("CRC-16/KERMIT", 16, poly: 0x1021, initial: 0x0000, reflected: true, xorOut: 0x0000, check: 0x2189,
              aliases: ["CRC-16/CCITT", "CRC-16/CCITT-TRUE", "CRC-16/V-41-LSB", "CRC-CCITT", "KERMIT"]),
        entry("CRC-16/LJ1200", 16, poly: 0x6F63, initial: 0x0000, reflected: false, xorOut: 0x0000, check: 0xBDF4),
        entry("CRC-16/M17", 16, poly: 0x5935, initial: 0xFFFF, reflected: false, xorOut: 0x0000, check: 0x772B),
        entry("CRC-16/MAXIM-DOW", 16, poly: 0x8005, initial: 0x0000, reflected: true, xorOut: 0xFFFF, check: 0x44C2,
              aliases: ["CRC-16/MAXIM"]),
        entry("CRC-16/MCRF4XX", 16, poly: 0x1021, initial: 0xFFFF, reflected: true, xorOut: 0x0000, check: 0x6F91),
        entry("CRC-16/MODBUS", 16, poly: 0x8005, initial: 0xFFFF, reflected: true, xorOut: 0x0000, check: 0x4B37,
              aliases: ["MODBUS"]),
        entry("CRC-16/NRSC-5", 16, poly: 0x080B, initial: 0xFFFF, reflected: true, xorOut: 0x0000, check: 0xA066),
        entry("CRC-16/OPENSAFETY-A", 16, poly: 0x5935, initial: 0x0000, reflected: false, xorOut: 0x0000, check: 0x5D38),
        entry("CRC-16/OPENSAFETY-B", 16, poly: 0x755B, initial: 0x0000, reflected: false, xorOut: 0x0000, check: 0x20FE),
        entry("CRC-16/PROFIBUS", 16, poly: 0x1DCF, initial: 0xFFFF, reflected: false, xorOut: 0xFFFF, check: 0xA819,
              aliases: ["CRC-16/IEC-61158-2"]),
        entry("CRC-16/RIELLO", 16, poly: 0x1021, initial: 0xB2AA, reflected: true, xorOut: 0x0000, check: 0x63D0),
        entry("CRC-16/SPI-FUJITSU", 16, poly: 0x1021, initial: 0x1D0F, reflected: false, xorOut: 0x0000, check: 0xE5CC,
              aliases: ["CRC-16/AUG-CCITT"]),
        entry("CRC-16/T10-DIF", 16, poly: 0x8BB7, initial: 0x0000, reflected: false, xorOut: 0x0000, check: 0xD0DB),
        entry("CRC-16/TELEDISK", 16, poly: 0xA097, initial: 0x0000, reflected: false, xorOut: 0x0000, check: 0x0FB3),
        entry("CRC-16/TMS37157", 16, poly: 0x1021, initial: 0x89EC, reflected: true, xorOut: 0x0000, check: 0x26B1),
        entry("CRC-16/UMTS", 16, poly: 0x8005, initial: 0x0000, reflected: false, xorOut: 0x0000, check: 0xFEE8,
              aliases: ["CRC-16/BUYPASS", "CRC-16/VERIFONE"]),
        entry("CRC-16/USB", 16, poly: 0x8005, initial: 0xFFFF, reflected: true, xorOut: 0xFFFF, check: 0xB4C8),
        entry("CRC-16/XMODEM", 16, poly: 0x1021, initial: 0x0000, reflected: false, xorOut: 0x0000, check: 0x31C3,
              aliases: ["CRC-16/ACORN", "CRC-16/LTE", "CRC-16/V-41-MSB", "XMODEM", "ZMODEM"]),
    ]

    /// The entry named `name` (or one of its aliases), ignoring case.
    public static func entry(named name: String) -> CRCCatalogueEntry? {
        let key = name.uppercased()
        return entries.first { $0.name == key || $0.aliases.contains(key) }
    }

    /// The catalogue name of `parameters`, when it has one.
    public static func name(of parameters: CRCParameters) -> String? {
        entries.first { $0.parameters == parameters }?.name
    }
}
