import BLEAnalysis
import ArgumentParser
import BLEBase
import Foundation
import BLEReports
import BLESessions
import BLEVendorDecoding

/// The formats reports are written in.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, html, markdown

    /// From `-o`'s extension: `.html`/`.htm`, `.md`/`.markdown`, `.json`.
    init?(path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "html", "htm": self = .html
        case "md", "markdown": self = .markdown
        case "json": self = .json
        default: return nil
        }
    }
}
