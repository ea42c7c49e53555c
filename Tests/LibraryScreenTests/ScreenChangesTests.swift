import LibraryScreen
import Sections
import Testing

@Suite("What a take or a return changes on the screen")
struct ScreenChangesTests {
    @Test("taking book 3: an insert in client-books, an update of book 3 in library-books, an update of client-info")
    func takeShowsThreeChanges() {
        let before = LibraryScreen.snapshot(from: Fixture.screen(count: 6, heldIDs: [1]))
        let after = LibraryScreen.snapshot(from: Fixture.screen(count: 6, heldIDs: [1, 3]))
        let changes = after.changes(from: before)
        #expect(changes.itemInserts.map(\.id) == ["client-book-3"])
        #expect(changes.itemInserts.map(\.sectionID) == ["client-books"])
        #expect(Set(changes.itemUpdates.map(\.id)) == ["book-3", "client-1"])
        #expect(changes.itemDeletes.isEmpty)
        #expect(changes.itemMoves.isEmpty)
        #expect(changes.sectionInserts.isEmpty && changes.sectionDeletes.isEmpty && changes.sectionUpdates.isEmpty)
        #expect(changes.supplementaryInserts.isEmpty && changes.supplementaryDeletes.isEmpty)
        #expect(changes.supplementaryUpdates.isEmpty)
    }

    @Test("the first book taken also removes the client's empty view, and the last returned brings it back")
    func emptyViewComesAndGoes() {
        let empty = LibraryScreen.snapshot(from: Fixture.screen(count: 3))
        let one = LibraryScreen.snapshot(from: Fixture.screen(count: 3, heldIDs: [2]))
        let taken = one.changes(from: empty)
        #expect(taken.supplementaryDeletes.map(\.id) == ["client-books-empty"])
        #expect(taken.itemInserts.map(\.id) == ["client-book-2"])
        let returned = empty.changes(from: one)
        #expect(returned.supplementaryInserts.map(\.supplementary.id) == ["client-books-empty"])
        #expect(returned.itemDeletes.map(\.id) == ["client-book-2"])
        #expect(Set(returned.itemUpdates.map(\.id)) == ["book-2", "client-1"])
    }

    @Test("the same data gives no changes")
    func stable() {
        let data = Fixture.screen(count: 5, heldIDs: [1, 2], othersIDs: [4])
        #expect(LibraryScreen.snapshot(from: data).changes(from: LibraryScreen.snapshot(from: data)).isEmpty)
    }
}
