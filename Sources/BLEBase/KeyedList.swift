/// Lists of key–value pairs a report keeps by the thousand (one per connection and characteristic):
/// as a list in key order, each is about half the size of a dictionary and in the same order in
/// every run.
public enum KeyedList {
    /// Sorts `list` by key and keeps, of the pairs with one key, the one added last. Sorting is
    /// stable, so the pairs of one key stay in the order they were added.
    public static func sortKeepingLast<Key: Comparable, Value>(_ list: inout [(key: Key, value: Value)]) {
        list.sort { $0.key < $1.key }
        var kept = 0
        for index in list.indices {
            if kept > 0, list[kept - 1].key == list[index].key { kept -= 1 }
            list.swapAt(kept, index)
            kept += 1
        }
        list.removeLast(list.count - kept)
    }
}
