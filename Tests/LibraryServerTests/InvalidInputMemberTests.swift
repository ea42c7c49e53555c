import Formats
import Foundation
import HTTP
import Library
import LibraryServer
import Testing

@Suite("serve: an invalid-input problem names the body member that is wrong")
struct InvalidInputMemberTests {
    @Test(
        "POST /v1/books and /v1/clients: each refused value is 400 invalid-input naming its member",
        arguments: [
            ("/v1/books", #"{"title":"ok","year":10000}"#, "year"),
            ("/v1/books", #"{"title":"  "}"#, "title"),
            ("/v1/books", #"{"title":"a\u0007b"}"#, "title"),
            ("/v1/books", #"{"title":"ok","pages":0}"#, "pages"),
            ("/v1/books", #"{"title":"ok","author":"a\u2028b"}"#, "author"),
            ("/v1/books", #"{"title":"ok","description":"\u0000"}"#, "description"),
            ("/v1/books", #"{"title":"Evil \u202Egnp.exe\u202C"}"#, "title"),
            ("/v1/books", #"{"title":"ok","author":"\u2067Ann"}"#, "author"),
            ("/v1/clients", #"{"name":"Zoe\u202D"}"#, "name"),
            ("/v1/clients", #"{"name":""}"#, "name"),
            ("/v1/clients", #"{"name":"Zoe","loanLimit":1001}"#, "loanLimit"),
            ("/v1/clients", #"{"name":"Zoe","cardNumber":" "}"#, "cardNumber"),
            ("/v1/clients", #"{"name":"Zoe","cardNumber":"\#(String(repeating: "7", count: 101))"}"#, "cardNumber"),
        ] as [(String, String, String)])
    func memberNamed(path: String, body: String, member: String) throws {
        let library = try TestLibrary()
        let librarian = try library.librarianToken()
        try library.serve { service in
            let response = try call(service.port, "POST", path, token: librarian, json: body)
            #expect(response.status == 400)
            #expect(response.code == "invalid-input")
            #expect(try response.json["member"] == .string(member))
        }
    }

    @Test("problems word what is wrong: bytes that are not UTF-8, a line separator")
    func wording() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        let librarian = try library.librarianToken()
        try library.serve { service in
            let search = try call(service.port, "GET", "/v1/screen?search=%ff", token: token)
            #expect(search.status == 400)
            let detail = try #require(try search.json["detail"]?.stringValue)
            #expect(detail.contains(#""%ff" is percent-encoded correctly, but the bytes it encodes are not UTF-8"#))
            #expect(!detail.contains("bad percent-encoding"))
            let title = try call(
                service.port, "POST", "/v1/books", token: librarian, json: #"{"title":"Line\u2028sep"}"#)
            #expect(try title.json["detail"] == .string("The title holds a line separator (U+2028) at character 5."))
        }
    }
}
