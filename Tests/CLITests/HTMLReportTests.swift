import AnalyzerTestSupport
import BLEBase
import Foundation
import BLEReports
import Testing

/// A capture whose device names try to break out of HTML, Markdown and the terminal.
enum HostileCapture {
    static let scripted = BluetoothAddress("C0:11:22:33:44:55")!
    static let piped = BluetoothAddress("C0:66:77:88:99:AA")!
    static let scriptName = "<script>alert(1)</script>"
    static let pipeName = "a|b`c*d_[x](y)&'\""

    /// Both advertise; the first is connected and its link lost, so its name lands in a failure.
    static func write() throws -> String {
        var s = HCIScenario()
        s.advertisingReport(scripted, random: true, data: HCIScenario.adStructure(0x09, Array(scriptName.utf8)), rssi: -50)
        s.advertisingReport(piped, random: true, data: HCIScenario.adStructure(0x09, Array(pipeName.utf8)), rssi: -60)
        s.createConnection(to: scripted, random: true, intervalUnits: 24)
        s.connectionComplete(handle: 0x0040, peer: scripted, random: true, intervalUnits: 24)
        s.wait(ms: 100)
        s.disconnectionComplete(handle: 0x0040, reason: 0x08)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-hostile-\(UUID().uuidString).btsnoop").path
        try Data(CaptureWriter.btsnoop(s.records)).write(to: URL(fileURLWithPath: path))
        return path
    }
}

@Suite(.serialized)
struct HTMLReportTests {
    @Test func equalsGoldenAndIsSelfContained() throws {
        let run = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--format", "html"])
        #expect(run.status == 0)
        try Golden.check(run.stdout, against: "report-demo-lock.html")
        #expect(HTMLCheck.problems(run.stdout) == [])
        // Nothing to fetch: no external URL, no src, only in-page links; a CSP forbids the rest.
        #expect(!run.stdout.contains("http://") && !run.stdout.contains("https://") && !run.stdout.contains("src="))
        #expect(run.stdout.components(separatedBy: "href=\"").dropFirst().allSatisfy { $0.hasPrefix("#") })
        #expect(run.stdout.contains("content=\"default-src 'none'"))
        // One JSON blob, with one lane per device, parsed here as the page's script does.
        let blob = try #require(run.stdout.components(separatedBy: "<script type=\"application/json\" id=\"bledecode-data\">")
            .last?.components(separatedBy: "</script>").first)
        let data = try JSONSerialization.jsonObject(with: Data(blob.utf8)) as? [String: Any]
        let lanes = data?["lanes"] as? [[String: Any]] ?? []
        #expect(lanes.filter { $0["device"] as? Bool == true }.map { $0["id"] as? String } == ["D1", "D2", "D3"])
        #expect(lanes.last?["id"] as? String == "host")
    }

    @Test func outputExtensionChoosesHTMLAndReportTakesTheFormat() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-\(getpid()).html").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try CLI.run([CLI.sample("demo-lock.pcapng"), "-o", path])
        #expect(run.status == 0 && run.stdout == "")
        let file = try String(contentsOfFile: path, encoding: .utf8)
        #expect(file.hasPrefix("<!DOCTYPE html>"))
        let report = try CLI.run(["report", "--format", "html", CLI.sample("demo-lock.pcapng")])
        #expect(report.stdout.contains("data-t=\"2350750\""))   // the ATT error links to its moment
    }

    @Test func hostileNamesStayInert() throws {
        let path = try HostileCapture.write()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try CLI.run([path, "--format", "html"])
        #expect(run.status == 0)
        #expect(!run.stdout.contains("<script>alert"))
        #expect(run.stdout.components(separatedBy: "<script").count == 3)   // the data blob and the page's script
        #expect(run.stdout.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(run.stdout.contains(#"\u003cscript\u003ealert(1)\u003c/script\u003e"#))
        #expect(run.stdout.contains(#"a|b`c*d_[x](y)&amp;&#39;\&quot;&quot;"#))
        #expect(HTMLCheck.problems(run.stdout) == [])
        let samples = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--format", "html"])
        #expect(!samples.stdout.contains("\u{1B}"))
        #expect(samples.stdout.contains(#"Scale\x1b[31m"#))
    }

    @Test func escapesEveryHTMLSpecialCharacter() {
        #expect(HTMLText.escape("<a href='x'>\"&\u{1B}</a>") == "&lt;a href=&#39;x&#39;&gt;&quot;&amp;\\x1b&lt;/a&gt;")
    }
}

/// A small well-formedness check for the report's HTML: every element that is not void is
/// closed in order, attributes are quoted, and script and style bodies cannot end early.
enum HTMLCheck {
    static let void: Set<String> = ["meta", "br", "hr", "img", "input", "link", "wbr"]

    static func problems(_ html: String) -> [String] {
        var problems: [String] = []
        var open: [String] = []
        var rest = Substring(html)
        guard rest.hasPrefix("<!DOCTYPE html>") else { return ["no doctype"] }
        rest = rest.dropFirst("<!DOCTYPE html>".count)
        while let start = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: start)...]
            guard let end = rest.firstIndex(of: ">") else { problems.append("unterminated tag"); break }
            let tag = rest[..<end]
            rest = rest[rest.index(after: end)...]
            if tag.hasPrefix("/") {
                let name = String(tag.dropFirst())
                if open.last == name { open.removeLast() } else { problems.append("</\(name)> closes \(open.last ?? "nothing")") }
                continue
            }
            let name = String(tag.prefix { $0.isLetter || $0.isNumber }).lowercased()
            guard !name.isEmpty else { problems.append("bad tag <\(tag)>"); continue }
            if tag.filter({ $0 == "\"" }).count % 2 != 0 { problems.append("unbalanced quotes in <\(tag)>") }
            if void.contains(name) { continue }
            if name == "script" || name == "style" {
                // Raw text: runs to the first closing tag, which must be its own.
                guard let close = rest.range(of: "</\(name)>") else { problems.append("unclosed <\(name)>"); break }
                if rest[..<close.lowerBound].contains("</") && name == "script" { problems.append("</ inside a script") }
                rest = rest[close.upperBound...]
                continue
            }
            open.append(name)
        }
        if !open.isEmpty { problems.append("unclosed " + open.joined(separator: ", ")) }
        return problems
    }
}
