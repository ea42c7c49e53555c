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
}
