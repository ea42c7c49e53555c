/// The one rule for telling card numbers apart: white space around them does not count, nor the case of their
/// ASCII letters, so `c-0001` is the card `C-0001` when signing in, adding a client or importing one. Cards are kept
/// as they were first written; the key is what is compared (in SQL, `upper(card_number)`, which changes ASCII
/// letters only, on SQLite and on PostgreSQL's `C` collation alike).
///
/// ```swift
/// CardNumber.key(" c-0001 ")  // "C-0001"
/// ```
public enum CardNumber {
    /// The card number as compared: trimmed, its ASCII letters in upper case (other characters as they are).
    ///
    /// ```swift
    /// CardNumber.key("r-1")  // "R-1"
    /// ```
    public static func key(_ text: String) -> String {
        String(decoding: trimmed(text).utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    /// The SQL that finds clients (`c`) by card: its condition takes the key, then its order the card as typed,
    /// so a card written exactly so comes first (a library may hold cards that differ only in case from before
    /// this rule).
    static let matchSQL = "upper(c.card_number) = ? ORDER BY c.card_number = ? DESC, c.id LIMIT 1"

    /// The parameters of `matchSQL` for `text`.
    static func matchParameters(_ text: String) -> [String] { [key(text), trimmed(text)] }
}
