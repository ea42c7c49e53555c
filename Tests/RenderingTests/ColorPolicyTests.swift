import Rendering
import Testing

@Suite struct ColorPolicyTests {
    @Test func explicitChoiceWins() {
        #expect(ColorPolicy.shouldColor(choice: .always, isTerminal: false, noColor: "1", term: "dumb"))
        #expect(!ColorPolicy.shouldColor(choice: .never, isTerminal: true, noColor: nil, term: "xterm"))
    }

    @Test func autoFollowsTheTerminalAndEnvironment() {
        #expect(ColorPolicy.shouldColor(choice: .auto, isTerminal: true, noColor: nil, term: "xterm-256color"))
        #expect(ColorPolicy.shouldColor(choice: .auto, isTerminal: true, noColor: "", term: nil))
        #expect(!ColorPolicy.shouldColor(choice: .auto, isTerminal: false, noColor: nil, term: "xterm"))
        #expect(!ColorPolicy.shouldColor(choice: .auto, isTerminal: true, noColor: "1", term: "xterm"))
        #expect(!ColorPolicy.shouldColor(choice: .auto, isTerminal: true, noColor: nil, term: "dumb"))
    }

    @Test func parsesChoices() {
        #expect(ColorPolicy.Choice(parsing: "Always") == .always)
        #expect(ColorPolicy.Choice(parsing: "never") == .never)
        #expect(ColorPolicy.Choice(parsing: "auto") == .auto)
        #expect(ColorPolicy.Choice(parsing: "yes") == nil)
    }
}
