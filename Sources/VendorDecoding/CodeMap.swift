/// Values keyed by integer codes (command codes and their names), in code order and searched in
/// halves: a profile names a handful of codes, and hashing one per frame cost more than the search.
struct CodeMap<Value: Sendable>: Sendable {
    private var codes: [Int] = []
    private var values: [Value] = []

    init() {}

    init(_ dictionary: [Int: Value]) {
        for (code, value) in dictionary.sorted(by: { $0.key < $1.key }) {
            codes.append(code)
            values.append(value)
        }
    }

    var count: Int { codes.count }

    subscript(code: Int) -> Value? {
        let i = position(of: code)
        return i < codes.count && codes[i] == code ? values[i] : nil
    }

    /// Sets the value of `code`, adding the code in its place.
    mutating func set(_ value: Value, for code: Int) {
        let i = position(of: code)
        if i < codes.count && codes[i] == code {
            values[i] = value
        } else {
            codes.insert(code, at: i)
            values.insert(value, at: i)
        }
    }

    /// The first position whose code is not below `code`.
    private func position(of code: Int) -> Int {
        var low = 0
        var high = codes.count
        while low < high {
            let middle = (low + high) / 2
            if codes[middle] < code { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
