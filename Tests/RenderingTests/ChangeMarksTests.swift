import Rendering
import Testing

@Suite struct ChangeMarksTests {
    @Test func insertionWinsOverUpdate() {
        let marks = ChangeMarks(
            insertedItems: ["a"], updatedItems: ["a", "b"], insertedSupplementaries: ["e"],
            updatedSupplementaries: ["h", "e"], insertedSections: ["s"])
        #expect(marks.mark(forItem: "a") == .inserted)
        #expect(marks.mark(forItem: "b") == .updated)
        #expect(marks.mark(forItem: "c") == nil)
        #expect(marks.mark(forSupplementary: "e") == .inserted)
        #expect(marks.mark(forSupplementary: "h") == .updated)
        #expect(marks.mark(forSection: "s") == .inserted)
        #expect(marks.mark(forSection: "t") == nil)
        #expect(!marks.isEmpty)
        #expect(ChangeMarks.none.isEmpty)
    }
}
