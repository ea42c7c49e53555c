import HTTP
import Testing

@Suite struct PreferencesTests {
    static func preferences(_ fields: String...) -> Preferences {
        var headers = HTTPHeaders()
        for field in fields { headers.add("Prefer", field) }
        return Preferences(headers)
    }

    @Test func namesWithoutCaseValuesUnquotedParametersReadPast() {
        let preferences = Self.preferences(#"RETURN = minimal ; foo="a;b", wait=10, respond-async, x="q\"d,e""#)
        #expect(preferences["return"] == "minimal")
        #expect(preferences["Return"] == "minimal")
        #expect(preferences["wait"] == "10")
        #expect(preferences["respond-async"] == "")
        #expect(preferences["x"] == #"q"d,e"#)
        #expect(preferences["foo"] == nil)  // a parameter of `return`, not a preference
        #expect(preferences["handling"] == nil)
    }

    @Test func theFirstOfANameCountsAcrossFields() {
        let preferences = Self.preferences("return=representation", "return=minimal")
        #expect(preferences["return"] == "representation")
        #expect(Self.preferences("return=minimal,return=representation")["return"] == "minimal")
    }

    @Test func emptyOrMalformedFieldsStateNothingAndNeverFail() {
        for field in ["", " , ,", "=minimal", "\"", "return=\"unclosed", ";;", "\u{0}"] {
            let preferences = Self.preferences(field)
            #expect(preferences["return"] == nil || field.contains("return"), "\(field)")
        }
        #expect(Self.preferences("return=\"unclosed")["return"] == "\"unclosed")
        #expect(Preferences(HTTPHeaders())["return"] == nil)
    }
}
