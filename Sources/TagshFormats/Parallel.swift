import Dispatch

/// Work split in two halves, the second on another thread: this machine's
/// two cores. What the halves return comes back in order, so a caller that
/// merges them in order gets what one loop over the whole would have given.
enum Parallel {
    /// `body(0..<count/2)` here and `body(count/2..<count)` on another thread when `count` reaches
    /// `threshold`; below it (where a thread costs more than it saves), `body(0..<count)` alone.
    static func halves<T>(_ count: Int, threshold: Int, _ body: (Range<Int>) -> T) -> [T] {
        guard count >= threshold else { return [body(0..<count)] }
        let mid = count / 2
        return withoutActuallyEscaping(body) { body in
            let second = SecondHalf(body: body, range: mid..<count)
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { second.run() }
            let first = body(0..<mid)
            group.wait()
            return [first, second.result!]
        }
    }
}

/// The second half's work and result; nothing else touches it until the thread is waited for.
private final class SecondHalf<T>: @unchecked Sendable {
    let body: (Range<Int>) -> T
    let range: Range<Int>
    var result: T?

    init(body: @escaping (Range<Int>) -> T, range: Range<Int>) {
        self.body = body
        self.range = range
    }

    func run() { result = body(range) }
}
