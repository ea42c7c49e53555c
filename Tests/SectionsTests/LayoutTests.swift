import Sections
import Testing

@Suite struct LayoutTests {
    /// n items of `itemWidth` and n-1 gaps of `spacing` fit in `width`, counted without overflow.
    static func fits(_ count: Int, itemWidth: Int, spacing: Int, width: Int) -> Bool {
        let items = count.multipliedReportingOverflow(by: itemWidth)
        let gaps = (count - 1).multipliedReportingOverflow(by: spacing)
        let total = items.partialValue.addingReportingOverflow(gaps.partialValue)
        return !items.overflow && !gaps.overflow && !total.overflow && total.partialValue <= width
    }

    @Test("columns(forWidth:) is the most items that fit, at least 1, for any Int without trapping")
    func columnsForAnyInt() {
        let values = [
            Int.min, -80, -1, 0, 1, 2, 5, 6, 10, 27, 28, 29, 40, 80, 120, 1_000, Int.max / 2, Int.max - 1, .max,
        ]
        for style in [Layout.Style.grid, .row] {
            for itemWidth in values {
                for spacing in values {
                    let layout = Layout(style: style, minimumItemWidth: itemWidth, spacing: spacing)
                    for width in values {
                        let columns = layout.columns(forWidth: width)
                        let label = "\(style) \(itemWidth) \(spacing) \(width)"
                        #expect(columns >= 1, "\(label)")
                        if columns > 1 {
                            #expect(
                                Self.fits(
                                    columns, itemWidth: layout.minimumItemWidth, spacing: layout.spacing, width: width),
                                "\(label)")
                        }
                        if columns < Int.max {
                            #expect(
                                !Self.fits(
                                    columns + 1, itemWidth: layout.minimumItemWidth, spacing: layout.spacing,
                                    width: width),
                                "\(label)")
                        }
                    }
                }
            }
        }
        #expect(Layout.grid(minimumItemWidth: .max).columns(forWidth: 80) == 1)
        #expect(Layout.grid(minimumItemWidth: 10, spacing: .max).columns(forWidth: 80) == 1)
        #expect(Layout.grid(minimumItemWidth: 1, spacing: 0).columns(forWidth: .max) == .max)
        #expect(Layout.grid(minimumItemWidth: 28).columns(forWidth: 80) == 2)
        #expect(Layout.grid(minimumItemWidth: 28).columns(forWidth: 120) == 4)
        #expect(Layout.list.columns(forWidth: .max) == 1)
    }
}
