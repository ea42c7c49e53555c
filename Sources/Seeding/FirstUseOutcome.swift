/// What ``CatalogImport/firstUse(of:now:seedDemo:)`` did to a library.
///
/// ```swift
/// switch try CatalogImport.firstUse(of: store, now: now, seedDemo: false) {
/// case .handledBefore: print("Another process made it first.")
/// case .leftEmpty: print("Created an empty library.")
/// case .seeded(let report): print("Seeded \(report.books.inserted) books.")
/// }
/// ```
public enum FirstUseOutcome: Sendable {
    /// The first use had been handled already, by this process or another: nothing was done.
    case handledBefore
    /// This call handled the first use and seeded nothing (`seedDemo: false`).
    case leftEmpty
    /// This call handled the first use and seeded the demo data; the seeding's report.
    case seeded(ImportReport)
}
