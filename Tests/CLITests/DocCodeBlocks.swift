import AnalyzerTestSupport
import Foundation

/// The fenced code blocks of one of the project's Markdown pages, for tests that hold a page's
/// examples to what bledecode prints.
struct DocCodeBlocks {
    struct Block {
        /// The fence's info string: `json`, `sh`, or empty for plain text.
        var info: String
        /// The line of the opening fence, from 0.
        var line: Int
        var lines: [String]
    }

    let lines: [String]
    let blocks: [Block]

    /// `page` relative to the package root (`README.md`, `docs/failures.md`).
    init(_ page: String) throws {
        let text = try String(contentsOf: SharedCaptures.packageRoot.appendingPathComponent(page), encoding: .utf8)
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var open: Block?
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("```") {
                if let block = open { blocks.append(block) }
                open = open == nil ? Block(info: String(line.dropFirst(3)), line: index, lines: []) : nil
            } else {
                open?.lines.append(line)
            }
        }
        self.blocks = blocks
    }

    /// The blocks with fence info `info` opened after the first line holding `marker`.
    func blocks(_ info: String, after marker: String) -> [Block] {
        guard let markerLine = lines.firstIndex(where: { $0.contains(marker) }) else { return [] }
        return blocks.filter { $0.info == info && $0.line > markerLine }
    }
}
