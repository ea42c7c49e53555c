// LibraryCLI module
