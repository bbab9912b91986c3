import BLEBase
@testable import BLEATT

/// Decodes `bytes` as one ATT PDU, as the pipeline hands it over (layer `.att`, offset 0).
func decode(_ bytes: [UInt8]) throws(DecodeError) -> ATTPDU {
    var reader = ByteReader(bytes, layer: .att)
    return try ATTPDU(parsing: &reader)
}
