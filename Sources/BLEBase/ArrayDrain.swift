/// Moving elements out of an array, for lists of values that hold references. A namespace, not
/// an `Array` extension: the layers' public members of standard types would show in the code of
/// the library's users (member lookup reaches modules a library imports `internal import`).
public enum ArrayDrain {
    /// Hands every element of `array` to `body` in order, each moved out rather than copied,
    /// then leaves the array empty (its capacity kept). `for element in array` would copy each
    /// element (retaining what it holds) and release it twice, once as the copy and once with
    /// the array.
    @inlinable
    public static func all<Element>(_ array: inout [Element], _ body: (consuming Element) -> Void) {
        first(array.count, of: &array, body)
    }

    /// Hands the first `k` (at most `count`) elements to `body` in order, each moved out, keeping
    /// the rest in order and the capacity. Reversed, the elements come off the end (`removeLast`
    /// moves one out and leaves nothing behind; a second reversal puts the rest back in order);
    /// moving each out in place would need a placeholder value written in its place and destroyed
    /// with the array.
    @inlinable
    public static func first<Element>(_ k: Int, of array: inout [Element], _ body: (consuming Element) -> Void) {
        // Nothing to hand over: no reversals.
        guard k > 0 else { return }
        reverseByMoving(&array)
        for _ in 0..<k { body(array.removeLast()) }
        if !array.isEmpty { reverseByMoving(&array) }
    }

    /// `reverse()` with each element moved: `Array.reverse()` swaps through copies, retaining and
    /// releasing what each holds.
    @inlinable
    static func reverseByMoving<Element>(_ array: inout [Element]) {
        array.withUnsafeMutableBufferPointer { $0.reverse() }
    }

    /// Removes the first `k` elements of `array`, keeping the capacity. When they are all of them
    /// and few (a per-value list of one or two), one by one from the end: `removeFirst(_:)` and
    /// `removeAll(keepingCapacity:)` go through the generic `replaceSubrange`, costly even for
    /// one element.
    @inlinable
    public static func removeFirst<Element>(_ k: Int, of array: inout [Element]) {
        if k == array.count, k <= 8 {
            while !array.isEmpty { array.removeLast() }
        } else if k == array.count {
            array.removeAll(keepingCapacity: true)
        } else {
            array.removeFirst(k)
        }
    }
}
