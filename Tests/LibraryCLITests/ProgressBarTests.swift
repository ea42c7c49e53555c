import Rendering
import Testing

@testable import LibraryCLI

/// The import progress bar fits the terminal's width, as every line does.
@Suite("The import progress bar fits the width")
struct ProgressBarTests {
    @Test("never wider than the width less one column, at any width from 20", arguments: [20, 21, 30, 40, 47, 80, 200])
    func fits(width: Int) {
        for (done, total) in [(0, 20_000), (5_000, 20_000), (999_999, 1_000_000), (1_000_000, 1_000_000)] {
            let line = ProgressBar.line(done: done, total: total, width: width)
            #expect(DisplayWidth.of(line) <= width - 1, "\(width): \(line)")
            let counts = "\(done)/\(total) rows"
            #expect(line.hasSuffix(" " + counts) || counts.hasPrefix(line), "\(width): \(line)")
        }
    }

    @Test("30 cells of bar at 80 columns, fewer when narrower; the counts alone when no 5 cells of bar fit")
    func shapes() {
        #expect(
            ProgressBar.line(done: 10_000, total: 20_000, width: 80)
                == String(repeating: "█", count: 15) + String(repeating: "·", count: 15) + " 10000/20000 rows")
        #expect(
            ProgressBar.line(done: 10_000, total: 20_000, width: 30)
                == String(repeating: "█", count: 6) + String(repeating: "·", count: 6) + " 10000/20000 rows")
        #expect(ProgressBar.line(done: 10_000, total: 20_000, width: 20) == "10000/20000 rows")
    }
}
