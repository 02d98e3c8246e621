import Foundation
import Testing
import TagshFuzzTargets

/// Every input a fuzzer found a crash or hang with (and the seeds) is kept in
/// `Regressions/TARGET/` and replayed here, so a fixed bug stays fixed.
struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Regressions")

    static var cases: [String] {
        FuzzTargets.names.flatMap { target in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(target).path)) ?? [])
                .filter { !$0.hasPrefix(".") }.sorted().map { "\(target)/\($0)" }
        }
    }

    @Test(arguments: cases)
    func replays(_ path: String) throws {
        let target = String(path.prefix { $0 != "/" })
        let bytes = Array(try Data(contentsOf: Self.folder.appendingPathComponent(path)))
        FuzzTargets.run(target, bytes)
    }
}
