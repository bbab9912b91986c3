import AnalyzerTestSupport
import Foundation
import Testing

/// `-v` reads in time order: a connection's transactions and notifications under one line,
/// each naming its attribute, a read showing what was read.
@Suite(.serialized)
struct VerboseTimeOrderTests {
    /// The detail lines of connection `id`'s `transactions in time order:` line.
    static func details(_ arguments: [String], connection id: String) throws -> [String] {
        let run = try CLI.run([CLI.sample("demo-lock.btsnoop"), "-v", "--time", "relative"] + arguments)
        #expect(run.status == 0)
        let lines = run.stdout.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.contains("\(id)    transactions in time order:") }) else { return [] }
        return lines[(start + 1)...].prefix { $0.hasPrefix("    +") && $0.dropFirst(15).hasPrefix("      ") }
            .map { String($0.drop { $0 != "+" }) }
    }

    @Test func notificationsFollowTheWritesThatTriggeredThem() throws {
        let c1 = try Self.details([], connection: "C1")
        #expect(c1 == [
            "+0.887250          CCCD of FFE2: Write Request 0100 → Write Response in 32.5 ms  #70 #72",
            "+0.921000          Battery Level (2A19): Read Request → Read Response 57 in 32.5 ms  #73 #75",
            "+0.954750          FFE1: Write Request aa01590000f455 → Write Response in 32.5 ms  #76 #78",
            "+1.028500          FFE2: Handle Value Notification aa8159000801000503403031300655  #79",
            "+1.097250          FFE1: Write Request aa105a00061122334455661f55 → Write Response in 32.5 ms  #80 #82",
            "+1.171000          FFE2: Handle Value Notification aa905a0001002355  #83",
            "+1.239750          FFE1: Write Request aa115b00008355 → Write Response in 32.5 ms  #84 #86",
            "+1.313500          FFE2: Handle Value Notification aa915b0001fcb655  #87",
        ])
        let times = c1.map { Double($0.dropFirst().prefix { $0 != " " }) ?? 0 }
        #expect(times == times.sorted())
    }

    /// A handle filter keeps the transactions about that handle.
    @Test func handleFilterKeepsItsTransactions() throws {
        let c2 = try Self.details(["--handle", "0x0012"], connection: "C2")
        #expect(c2.count == 4)
        #expect(c2.allSatisfy { $0.contains("FFE2: Handle Value Notification") })
    }

    /// Without `-v` the line is not there: the summaries per characteristic are.
    @Test func plainTimelineHasNoTransactionLines() throws {
        let run = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--transactions", "all"])
        #expect(!run.stdout.contains("transactions in time order"))
        #expect(run.stdout.contains("C1    FFE2: Handle Value Notification ×3"))
    }
}
